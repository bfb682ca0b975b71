import type { Member } from '../directory/directory';
import { InternalError } from '../errors';
import type { OperationDeps } from './operation-deps';

/** A member the directory referenced must exist; if not, the directory is inconsistent (our fault). */
export async function memberOf(deps: OperationDeps, memberId: string): Promise<Member> {
  const member = await deps.directory.findMember(memberId);
  if (member === undefined) throw new InternalError(`member ${memberId} is referenced by the directory but not configured`);
  return member;
}

/** Fields every forwarded request carries besides the operation's own. */
export function forwardedCommon(member: Member, terminalPin: string | null): { integration?: string; terminal_id?: string } {
  const common: { integration?: string; terminal_id?: string } = {};
  if (member.integration !== null && member.integration !== '') common.integration = member.integration;
  if (terminalPin !== null && terminalPin !== '') common.terminal_id = terminalPin;
  return common;
}
