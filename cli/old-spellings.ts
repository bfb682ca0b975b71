import type { CommandIo } from './command-io';

// `verify --explore`, `verify --load` and `verify --replay <file>` were modes of verify before
// they became commands of their own; the old spellings run the new commands until 1.0, with a
// line on stderr naming the new one.

const MOVED = { '--explore': 'explore', '--load': 'load', '--replay': 'replay' } as const;
type MovedFlag = keyof typeof MOVED;

/** The command `verify <argv>` now is, with its argv, once the note is printed; undefined: verify itself. */
export function movedFromVerify(
  argv: string[],
  io: Pick<CommandIo, 'stderr'>,
): { command: (typeof MOVED)[MovedFlag]; argv: string[] } | undefined {
  const at = argv.findIndex((arg) => Object.hasOwn(MOVED, arg));
  if (at === -1) return undefined;
  const flag = argv[at] as MovedFlag;
  const command = MOVED[flag];
  const spelling = command === 'replay' ? `${flag} <file>` : flag;
  const now = command === 'replay' ? `replay <file>` : command;
  io.stderr(`verify: ${spelling} is now 'federated-gateway ${now}'; the old spelling works until 1.0\n`);
  return { command, argv: [...argv.slice(0, at), ...argv.slice(at + 1)] };
}
