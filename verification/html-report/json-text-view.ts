import { markup, type Markup } from './html-text';
import { markerOf, type MarkedPath } from './json-view';

// A JSON body shown from its text as it arrived, not re-serialized: every number, string and
// literal keeps its own spelling (14.0 stays 14.0, "\u00e9" stays "\u00e9"), since the
// difference between a decimal and an integer is what the contract cares about. Only the
// whitespace between tokens is laid out again (two spaces an indent), and the parts a finding
// points at are marked as in jsonView. Text that does not parse is shown whole, escaped.

const SCALAR = /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/;
const segmentText = (segment: string) => `/${segment.replace(/~/g, '~0').replace(/\//g, '~1')}`;

class NotJson extends Error {}

export function jsonTextView(text: string, marks: readonly MarkedPath[] = []): Markup {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return markup`<pre class="json">${text}</pre>`;
  }
  const marked = markerOf(parsed, marks);
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  const expect = (ch: string) => {
    space();
    if (text[at] !== ch) throw new NotJson();
    at++;
  };
  const scalar = (): string => {
    space();
    const m = SCALAR.exec(text.slice(at));
    if (m === null) throw new NotJson();
    at += m[0].length;
    return m[0];
  };
  const value = (pointer: string, indent: string): Markup => {
    space();
    const open = text[at];
    if (open !== '{' && open !== '[') return markup`${scalar()}`;
    at++;
    const close = open === '{' ? '}' : ']';
    space();
    if (text[at] === close) {
      at++;
      return markup`${open}${close}`;
    }
    const inner = indent + '  ';
    const lines: Markup[] = [];
    for (let i = 0; ; i++) {
      let name = '';
      let key = String(i);
      if (open === '{') {
        name = scalar();
        key = JSON.parse(name) as string;
        expect(':');
      }
      const child = pointer + segmentText(key);
      const shown = value(child, inner);
      space();
      const more = text[at] === ',';
      if (more) at++;
      lines.push(
        markup`${inner}${marked(child, markup`${name === '' ? '' : `${name}: `}${shown}`)}${more ? ',' : ''}\n`,
      );
      if (!more) break;
    }
    expect(close);
    return markup`${open}\n${lines}${indent}${close}`;
  };
  try {
    return markup`<pre class="json">${marked('', value('', ''))}</pre>`;
  } catch (error) {
    if (!(error instanceof NotJson)) throw error;
    return markup`<pre class="json">${text}</pre>`;
  }
}
