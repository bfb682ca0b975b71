import { KitInputError, SellerProtocolError, SellerUnreachableError } from '../verification/kit-errors';
import type { CommandIo } from './command-io';

// The one place a command turns the kit functions' errors into exit 2: a seller that cannot
// be reached at start or speaks another protocol than its URL says, and bad input (named in
// the command's words by `words`).

/** Prints the error for `command` and returns 2; rethrows anything that is not the kit's. */
export function kitErrorExit(
  command: string,
  error: unknown,
  io: CommandIo,
  words: (error: KitInputError) => string = (e) => e.detail,
): number {
  if (error instanceof SellerProtocolError) {
    io.stderr(`${command}: ${error.message}\n`);
    return 2;
  }
  if (error instanceof SellerUnreachableError) {
    io.stderr(
      `${command}: your system at ${error.sellerUrl} cannot be reached: ${error.reason}. Start it, or check --seller-url.\n`,
    );
    return 2;
  }
  if (error instanceof KitInputError) {
    io.stderr(`${command}: ${words(error)}\n`);
    return 2;
  }
  throw error;
}
