// Colour for the terminal, and none anywhere else: the command decides which palette a
// stream gets (a TTY without NO_COLOR); reports only name their parts.

export interface Palette {
  pass(text: string): string;
  fail(text: string): string;
  dim(text: string): string;
}

const same = (text: string) => text;
export const PLAIN: Palette = { pass: same, fail: same, dim: same };
export const ANSI: Palette = {
  pass: (text) => `\u001b[32m${text}\u001b[39m`,
  fail: (text) => `\u001b[31m${text}\u001b[39m`,
  dim: (text) => `\u001b[2m${text}\u001b[22m`,
};

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export const paletteFor = (isTTY: boolean, env: NodeJS.ProcessEnv): Palette =>
  isTTY && (env.NO_COLOR ?? '') === '' ? ANSI : PLAIN;
