// What a command needs from the process, passed in so the command runs the same from an npm
// script, from an installable CLI's subcommand, or in a test with captured output.

export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Calls `listener` on SIGINT or SIGTERM; returns the function that stops listening. */
  onStop(listener: (signal: string) => void): () => void;
}

export const processIo: CommandIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  onStop(listener) {
    const onInt = () => listener('SIGINT');
    const onTerm = () => listener('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    return () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  },
};
