import type { Member } from '../directory/directory';
import { InternalError } from '../errors';
import type { OperationDeps } from './operation-deps';

/** The one rule for both look-ups below: a referenced member must be configured. */
function configured(memberId: string, member: Member | undefined): Member {
  if (member === undefined)
    throw new InternalError(`member ${memberId} is referenced by the directory but not configured`);
  return member;
}

/**
 * A member the directory referenced must exist; if not, the directory is inconsistent (our
 * fault). Without waiting when the directory has the member in memory.
 */
export function memberOf(deps: Pick<OperationDeps, 'directory'>, memberId: string): Member | Promise<Member> {
  const cached = deps.directory.cached?.member(memberId);
  if (cached !== undefined) return configured(memberId, cached.value);
  return deps.directory.findMember(memberId).then((member) => configured(memberId, member));
}

/** Fields every forwarded request carries besides the operation's own. */
export function forwardedCommon(
  member: Member,
  terminalPin: string | null,
): { integration?: string; terminal_id?: string } {
  const common: { integration?: string; terminal_id?: string } = {};
  if (member.integration !== null && member.integration !== '') common.integration = member.integration;
  if (terminalPin !== null && terminalPin !== '') common.terminal_id = terminalPin;
  return common;
}
