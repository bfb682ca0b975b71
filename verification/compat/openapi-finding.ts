// One buyer-side finding, its class drawn from the policy table (openapi-compat-policy.ts).
import type { CompatFinding } from './compat-finding';
import { OPENAPI_POLICY, type OpenApiPolicy } from './openapi-compat-policy';

export interface BuyerChange {
  policy: OpenApiPolicy;
  pointer: string;
  base?: unknown;
  head?: unknown;
  message: string;
}

/** Where findings of one operation go: each comparison appends, none returns. */
export interface FindingSink {
  where: string;
  findings: CompatFinding[];
}

export function report(sink: FindingSink, change: BuyerChange): void {
  const finding: CompatFinding = {
    side: 'buyer',
    class: OPENAPI_POLICY[change.policy].class,
    policy: change.policy,
    where: sink.where,
    pointer: change.pointer,
    message: change.message,
  };
  if (change.base !== undefined) finding.base = change.base;
  if (change.head !== undefined) finding.head = change.head;
  sink.findings.push(finding);
}
