import { FORMATS, type FormatName } from './formats';

/**
 * Where formatted strings repeat within one payload, a check that remembers what it accepted.
 *
 * A seller's item-inquiry reply repeats each location's route times (its delivery runs) on
 * every entry: 50 parts at 5 locations carry 5 locations' route times 50 times over. Reading a
 * route time digit by digit costs ~20 ns (19 `charCodeAt`s: most of what checking a large
 * reply cost); comparing it with a string already accepted is one native `===`. So the quick
 * pass compares a location's route times with the ones accepted at the same place (the same
 * index in its entry's `locations`: sellers answer in the order the locations were forwarded)
 * earlier in the same reply, and parses only what differs.
 *
 * The place is only a hint of where to look: a string is accepted without parsing only when
 * it equals a string that passed the full check at the same field, so a wrong hint (locations
 * answered in another order) costs a parse, never a verdict. The validator forgets everything
 * before each payload (`forget`): a memo holds one reply's strings at most.
 */
export interface FormatMemoSpec {
  /** The owner's array property holding objects with formatted fields, e.g. `route_times`. */
  list: string;
  /** Formatted fields of each object in the list, with their format. */
  fields: Record<string, FormatName>;
}

export interface FormatMemo {
  /**
   * False exactly when some formatted field in the owner's list breaks its format. Anything
   * else wrong (no list, an entry that is not an object, a field missing or not a string) is
   * left to the schema's own keywords, which the quick pass keeps. `place`: the owner's index
   * in its array (anything else, or past MAX_PLACES: nothing remembered).
   */
  holds(owner: Record<string, unknown>, place: unknown): boolean;
  /** Drops every remembered string: called before each payload. */
  forget(): void;
}

/** Places remembered at most (a location list longer than this is checked string by string past it). */
const MAX_PLACES = 256;

/**
 * Each place remembers one string per slot (list entry × field); every string remembered in a
 * field's slot passed that field's format check, so a value equal to it passes too. Slots
 * start empty (undefined, which no string equals).
 */
export function createFormatMemo(spec: FormatMemoSpec): FormatMemo {
  const names = Object.keys(spec.fields);
  const checks = names.map((name) => FORMATS[spec.fields[name]]);
  const width = names.length;
  const places: (unknown[] | undefined)[] = [];
  // Generated so that the list and each field are read by a literal name: a named property
  // load, where a loop over names would make V8 look the key up each time. The names come
  // from our own schemas, quoted by JSON.stringify.
  const fieldChecks = names
    .map(
      (name, f) => `
      v = e[${JSON.stringify(name)}];
      if (v !== known[k + ${f}] && typeof v === 'string') {
        if (!checks[${f}](v)) return false;
        known[k + ${f}] = v;
      }`,
    )
    .join('');
  const compile = new Function(
    'places',
    'checks',
    'maxPlaces',
    `return function formatsHold(owner, place) {
      const list = owner[${JSON.stringify(spec.list)}];
      if (!Array.isArray(list)) return true;
      const remembered = typeof place === 'number' && place < maxPlaces;
      let known = remembered ? places[place] : undefined;
      if (known === undefined || known.length !== list.length * ${width}) {
        known = new Array(list.length * ${width}).fill(undefined);
        if (remembered) places[place] = known;
      }
      let v;
      for (let i = 0, k = 0; i < list.length; i++, k += ${width}) {
        const e = list[i];
        if (e === null || typeof e !== 'object') continue;${fieldChecks}
      }
      return true;
    };`,
  ) as (
    places: (unknown[] | undefined)[],
    checks: ((value: string) => boolean)[],
    maxPlaces: number,
  ) => FormatMemo['holds'];
  return {
    holds: compile(places, checks, MAX_PLACES),
    forget: () => {
      places.length = 0;
    },
  };
}
