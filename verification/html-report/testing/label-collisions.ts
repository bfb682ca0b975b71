import { overlaps, type Box } from '../svg-label-layout';

// What a reader would see as a clash in a chart: two pieces of text drawn over each other, or
// text cut off at the SVG's edge. The same check reads boxes estimated from the markup (unit
// tests) and boxes the browser laid out (the browser test).

export interface LabelBox {
  text: string;
  box: Box;
}

/** Sub-pixel contact (anti-aliasing, rounding) is not a clash. */
const SLACK = 0.5;

export function labelCollisions(labels: LabelBox[], frame: Box): string[] {
  const shrunk = (b: Box): Box => ({
    x: b.x + SLACK,
    y: b.y + SLACK,
    width: Math.max(0, b.width - 2 * SLACK),
    height: Math.max(0, b.height - 2 * SLACK),
  });
  const found: string[] = [];
  labels.forEach((a, i) => {
    const b = a.box;
    if (
      b.x < frame.x - SLACK ||
      b.y < frame.y - SLACK ||
      b.x + b.width > frame.x + frame.width + SLACK ||
      b.y + b.height > frame.y + frame.height + SLACK
    )
      found.push(`'${a.text}' leaves the SVG`);
    for (const other of labels.slice(i + 1))
      if (overlaps(shrunk(b), shrunk(other.box))) found.push(`'${a.text}' overlaps '${other.text}'`);
  });
  return found;
}
