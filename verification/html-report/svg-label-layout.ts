// Where a chart's labels go, decided before anything is drawn: there is no browser to measure
// text in, so widths are estimated on the wide side, and labels that would collide (two marks
// at nearly the same height, a legend longer than one row) are moved apart by those estimates.

/** The charts' font size in px (page-shell's `svg text`). */
export const FONT_PX = 11;
/** A line of text from its baseline: ascent above, descent below, in em (DejaVu Sans, Debian's system-ui). */
const ASCENT_EM = 0.93;
const DESCENT_EM = 0.24;
/** Baselines of labels stacked one above the other stay this far apart: a line and a little air. */
export const LINE_PX = 14;

// Advance widths in em, rounded up from DejaVu Sans, the widest of the usual sans faces: any
// other face draws the text narrower, which only leaves more room.
const NARROW = new Set("il.,:;'|!()[]fjtr/ -");
const WIDE = new Set('mw%@MW<>=≥≤—…');
function charEm(c: string): number {
  if (NARROW.has(c)) return 0.42;
  if (WIDE.has(c)) return 1;
  if (c >= 'A' && c <= 'Z') return 0.78;
  return 0.66;
}

export const textWidth = (text: string): number => [...text].reduce((width, c) => width + charEm(c) * FONT_PX, 0);

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Anchor = 'start' | 'middle' | 'end';

/** The box a line of text occupies when drawn at x (per its anchor) on the baseline y. */
export function textBox(text: string, x: number, y: number, anchor: Anchor): Box {
  const width = textWidth(text);
  const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
  return { x: left, y: y - ASCENT_EM * FONT_PX, width, height: (ASCENT_EM + DESCENT_EM) * FONT_PX };
}

/** The baseline that centres a line of text on y (a label beside a horizontal line). */
export const centredBaseline = (y: number): number => y + ((ASCENT_EM - DESCENT_EM) / 2) * FONT_PX;

/** The lowest baseline whose text stays inside a box of this height, and the highest. */
export const baselineBounds = (top: number, bottom: number): { min: number; max: number } => ({
  min: top + ASCENT_EM * FONT_PX + 1,
  max: bottom - DESCENT_EM * FONT_PX - 1,
});

export const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Baselines for labels that each want to sit at `wanted`, in the same order: as near as they
 * can, at least LINE_PX apart, between min and max (the top wins when they cannot all fit).
 */
export function spreadBaselines(wanted: number[], min: number, max: number): number[] {
  const order = wanted.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w || a.i - b.i);
  const placed = order.map((o) => o.w);
  const down = () => {
    for (let k = 0; k < placed.length; k++) placed[k] = Math.max(placed[k], k === 0 ? min : placed[k - 1] + LINE_PX);
  };
  down();
  for (let k = placed.length - 1; k >= 0; k--)
    placed[k] = Math.min(placed[k], k === placed.length - 1 ? max : placed[k + 1] - LINE_PX);
  down();
  const out: number[] = [];
  order.forEach((o, k) => (out[o.i] = placed[k]));
  return out;
}

/** Legend rows: the key (a short line), the name beside it, items left to right, wrapping within [left, right]. */
export const LEGEND = { rowPx: 16, keyPx: 18, gapPx: 6, afterPx: 14 } as const;

export function legendPositions(names: string[], left: number, right: number): { x: number; row: number }[] {
  let x = left;
  let row = 0;
  return names.map((name) => {
    const width = LEGEND.keyPx + LEGEND.gapPx + textWidth(name);
    if (x > left && x + width > right) {
      row += 1;
      x = left;
    }
    const at = { x, row };
    x += width + LEGEND.afterPx;
    return at;
  });
}
