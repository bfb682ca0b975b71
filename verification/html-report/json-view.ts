import { markup, type Markup } from './html-text';

// A JSON body pretty-printed as markup, with the parts a finding points at (JSON pointers
// into it) marked. A pointer to something absent (a missing field, a dropped item) marks the
// nearest thing that is there, so every finding shows somewhere.

export interface MarkedPath {
  /** JSON pointer, e.g. /items/1/original_mfr ('' or '/' for the whole body). */
  path: string;
  /** Shown on hover: the rule and its message. */
  label: string;
}

const segmentsOf = (pointer: string): string[] =>
  pointer === '' || pointer === '/'
    ? []
    : pointer
        .replace(/^\//, '')
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
const segmentText = (segment: string) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The pointer of the deepest part of `value` on the way to `pointer`. */
export function nearestPresent(value: unknown, pointer: string): string {
  let found = '';
  let node = value;
  for (const segment of segmentsOf(pointer)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) break;
    node = (node as Record<string, unknown>)[segment];
    found += segmentText(segment);
  }
  return found;
}

/** Wraps the part at a pointer in a <mark> naming each finding there (or at something absent below it). */
export function markerOf(value: unknown, marks: readonly MarkedPath[]): (pointer: string, inner: Markup) => Markup {
  const labels = new Map<string, string[]>();
  for (const m of marks) {
    const at = nearestPresent(value, m.path);
    labels.set(at, [...(labels.get(at) ?? []), m.label]);
  }
  return (pointer, inner) => {
    const label = labels.get(pointer);
    return label === undefined
      ? inner
      : markup`<mark class="broken" data-path="${pointer || '/'}" title="${label.join('\n')}">${inner}</mark>`;
  };
}

export function jsonView(value: unknown, marks: readonly MarkedPath[] = []): Markup {
  const marked = markerOf(value, marks);
  const render = (node: unknown, pointer: string, indent: string): Markup => {
    if (typeof node !== 'object' || node === null) return markup`${JSON.stringify(node) ?? 'undefined'}`;
    const inner = indent + '  ';
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [String(i), v])
      : Object.entries(node);
    if (entries.length === 0) return markup`${Array.isArray(node) ? '[]' : '{}'}`;
    const lines = entries.map(([key, child], i) => {
      const at = pointer + segmentText(key);
      const comma = i < entries.length - 1 ? ',' : '';
      const name = Array.isArray(node) ? '' : `${JSON.stringify(key)}: `;
      return markup`${inner}${marked(at, markup`${name}${render(child, at, inner)}`)}${comma}\n`;
    });
    const [open, close] = Array.isArray(node) ? ['[', ']'] : ['{', '}'];
    return markup`${open}\n${lines}${indent}${close}`;
  };
  return markup`<pre class="json">${marked('', render(value, '', ''))}</pre>`;
}
