// Where a JSON text first breaks, as a person finds it in an editor: JSON.parse names only an
// offset, or nothing, in its message. Every file a vendor writes (a state map, a mock-seller
// scenario) is told with line and column.

/** The offset of the first JSON syntax error in `text`; undefined when it finds none. */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let i = 0;
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i];
      if (c === '"') return void i++;
      if (c < ' ') fail();
      if (c !== '\\') i++;
      else if (text[i + 1] === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail();
        i += 6;
      } else if (i + 1 < text.length && '"\\/bfnrt'.includes(text[i + 1])) i += 2;
      else fail();
    }
  };
  const list = (close: string, entry: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      entry();
      space();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  const item = (): void => {
    space();
    const c = text[i];
    if (c === '{')
      list('}', () => {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        item();
      });
    else if (c === '[') list(']', item);
    else if (c === '"') string();
    else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (!text.startsWith(word, i)) fail();
      i += word.length;
    } else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) fail();
      i = NUMBER.lastIndex;
    }
  };
  try {
    item();
    space();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    return undefined; // nested too deep to walk: the parser's own message stays
  }
}

class SyntaxAt {
  constructor(readonly offset: number) {}
}

/** `line 3, column 7` of an offset in `text` (both from 1). */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Where the first JSON syntax error of `text` is, as `line 3, column 7`; undefined when none is found. */
export function jsonSyntaxErrorAt(text: string): string | undefined {
  const offset = jsonSyntaxErrorOffset(text);
  return offset === undefined ? undefined : lineAndColumn(text, offset);
}
