// Product and vehicle search, relevance-ranked, in PostgreSQL alone:
// - full-text search with every word as a prefix ("brak" finds "brake", "pads" finds "pad"
//   through the english stemmer), all words required;
// - typo tolerance: a word that starts no catalog word is replaced by the closest catalog
//   word within one or two edits ("brkae" → "brake", "civc" → "civic"); pg_trgm's index
//   finds the candidates where the extension exists, a scan of the word list otherwise;
// - an exact part number ranks first; results are limited and pageable, with the total.
import type { ProductSearchReply, SearchQuery, VehicleSearchReply } from '../../contracts/schemas/catalog';
import { SEARCH_DEFAULT_LIMIT } from '../../contracts/schemas/catalog';
import type { Queryable } from '../store/store';
import { closestWord, editsAllowed } from './spelling';

/** Nearest catalog words by trigram distance, checked by edit distance (spelling.ts). */
const TRIGRAM_CANDIDATES = 30;

export interface CatalogSearch {
  products(query: SearchQuery): Promise<ProductSearchReply>;
  vehicles(query: SearchQuery): Promise<VehicleSearchReply>;
  /** Whether typo tolerance (pg_trgm) is on for this store. */
  typoTolerant(): Promise<boolean>;
}

/** Letters and digits only: nothing a user types can change the tsquery's syntax. */
export const searchWords = (query: string): string[] => query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

// Part numbers are compared without punctuation: "917030" finds "917-030".
const PRODUCT_SEARCH_SQL = `
        WITH q AS (SELECT to_tsquery('english', $1) AS every, to_tsquery('english', $2) AS any),
        m AS (
          SELECT p.sku, p.mfr_code, p.brand, p.part_number, p.description, p.list_price::float8 AS list_price, p.pack_code,
                 json_build_object('id', pt.id, 'name', pt.name) AS part_type,
                 (CASE WHEN regexp_replace(lower(p.part_number), '[^a-z0-9]', '', 'g') = $3 THEN 10 ELSE 0 END
                  + CASE WHEN p.search_tsv @@ q.every THEN 1 ELSE 0 END
                  + ts_rank(p.search_tsv, q.any))::float8 AS score
            FROM catalog_products p JOIN catalog_part_types pt ON pt.id = p.part_type_id, q
           WHERE p.search_tsv @@ q.every
              OR regexp_replace(lower(p.part_number), '[^a-z0-9]', '', 'g') = $3
        )
        SELECT (SELECT count(*) FROM m)::int AS total,
               (SELECT coalesce(json_agg(x), '[]'::json) FROM
                  (SELECT * FROM m ORDER BY score DESC, brand, part_number LIMIT $4 OFFSET $5) x) AS results`;

const VEHICLE_SEARCH_SQL = `
        WITH q AS (SELECT to_tsquery('simple', $1) AS every, to_tsquery('simple', $2) AS any),
        m AS (
          SELECT v.id, v.name, v.year_id, mk.id AS make_id, mk.name AS make_name, md.id AS model_id, md.name AS model_name,
                 g.id AS group_id, g.name AS group_name,
                 (CASE WHEN v.search_tsv @@ q.every THEN 1 ELSE 0 END
                  + ts_rank(v.search_tsv, q.any))::float8 AS score
            FROM catalog_base_vehicles v
            JOIN catalog_makes mk ON mk.id = v.make_id
            JOIN catalog_models md ON md.id = v.model_id
            JOIN catalog_vehicle_group_types g ON g.id = md.vehicle_group_type_id, q
           WHERE v.search_tsv @@ q.every
        )
        SELECT (SELECT count(*) FROM m)::int AS total,
               (SELECT coalesce(json_agg(json_build_object(
                  'base_vehicle', json_build_object('id', x.id, 'name', x.name, 'year_id', x.year_id,
                     'make', json_build_object('id', x.make_id, 'name', x.make_name),
                     'model', json_build_object('id', x.model_id, 'name', x.model_name),
                     'vehicle_group_type', json_build_object('id', x.group_id, 'name', x.group_name)),
                  'engines', (SELECT coalesce(json_agg(json_build_object('id', e.key, 'name', e.name) ORDER BY e.name), '[]'::json)
                                FROM catalog_base_vehicle_engines be JOIN catalog_engines e ON e.key = be.engine_key
                               WHERE be.base_vehicle_id = x.id),
                  'score', x.score) ORDER BY x.score DESC, x.year_id DESC, x.name), '[]'::json)
                  FROM (SELECT * FROM m ORDER BY score DESC, year_id DESC, name LIMIT $3 OFFSET $4) x) AS results`;

type WordKind = 'product' | 'vehicle';
/** The query's words, spelling corrected against the catalog words of one kind. */
type Corrector = (words: string[], kind: WordKind) => Promise<string[]>;

export function createCatalogSearch(db: Queryable): CatalogSearch {
  let trigram: Promise<boolean> | undefined;
  const typoTolerant = () =>
    (trigram ??= db
      .query<{ present: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') AS present")
      .then((r) => r.rows[0]?.present === true));
  const correct: Corrector = (words, kind) => correctSpelling(db, typoTolerant, words, kind);
  return {
    typoTolerant,
    products: (query) => searchProducts(db, correct, query),
    vehicles: (query) => searchVehicles(db, correct, query),
  };
}

/**
 * The query's words, each one that starts no catalog word replaced by the closest catalog
 * word. With pg_trgm the trigram index proposes candidates (scales to large catalogs);
 * without it every catalog word of the kind is a candidate (fine for small catalogs).
 */
async function correctSpelling(
  db: Queryable,
  typoTolerant: () => Promise<boolean>,
  words: string[],
  kind: WordKind,
): Promise<string[]> {
  const unknown = await unknownWords(db, words, kind);
  if (unknown.length === 0) return words;
  const candidates = await spellingCandidates(db, await typoTolerant(), unknown, kind);
  const fix = new Map<string, string>();
  for (const word of unknown) {
    const pool = candidates.filter((c) => c.query === null || c.query === word).map((c) => c.word);
    const best = closestWord(word, pool);
    if (best) fix.set(word, best);
  }
  return words.map((w) => fix.get(w) ?? w);
}

/** The words (once each) that start no catalog word of this kind and are long enough to correct. */
async function unknownWords(db: Queryable, words: string[], kind: WordKind): Promise<string[]> {
  const { rows: known } = await db.query<{ word: string }>(
    `SELECT q.word FROM unnest($1::text[]) AS q(word)
      WHERE EXISTS (SELECT 1 FROM catalog_search_words w WHERE w.kind = $2 AND w.word LIKE q.word || '%')`,
    [words, kind],
  );
  const knownWords = new Set(known.map((r) => r.word));
  return [...new Set(words.filter((w) => !knownWords.has(w) && editsAllowed(w) > 0))];
}

/**
 * Catalog words that may be what was meant: per unknown word
 * by trigram distance, or (query null) every word of the kind.
 */
async function spellingCandidates(
  db: Queryable,
  trigram: boolean,
  unknown: string[],
  kind: WordKind,
): Promise<{ query: string | null; word: string }[]> {
  const { rows } = trigram
    ? await db.query<{ query: string; word: string }>(
        `SELECT q.word AS query, c.word FROM unnest($1::text[]) AS q(word)
           CROSS JOIN LATERAL (SELECT w.word FROM catalog_search_words w WHERE w.kind = $2
                                ORDER BY w.word <-> q.word LIMIT ${TRIGRAM_CANDIDATES}) c`,
        [unknown, kind],
      )
    : await db.query<{ query: string | null; word: string }>(
        'SELECT NULL AS query, word FROM catalog_search_words WHERE kind = $1',
        [kind],
      );
  return rows;
}

function paging(query: SearchQuery) {
  return { limit: query.limit ?? SEARCH_DEFAULT_LIMIT, offset: query.offset ?? 0 };
}

/** Every word as a prefix: all required (`every`), or any (`any`, for ranking). */
const prefixQueries = (words: string[]) => [
  words.map((w) => `${w}:*`).join(' & '),
  words.map((w) => `${w}:*`).join(' | '),
];

async function searchProducts(db: Queryable, correct: Corrector, query: SearchQuery): Promise<ProductSearchReply> {
  const { limit, offset } = paging(query);
  const typed = searchWords(query.query);
  if (typed.length === 0) return { query: query.query, total: 0, limit, offset, results: [] };
  const words = await correct(typed, 'product');
  const { rows } = await db.query<{ total: number; results: ProductSearchReply['results'] }>(PRODUCT_SEARCH_SQL, [
    ...prefixQueries(words),
    typed.join(''),
    limit,
    offset,
  ]);
  return { query: query.query, total: rows[0].total, limit, offset, results: rows[0].results };
}

async function searchVehicles(db: Queryable, correct: Corrector, query: SearchQuery): Promise<VehicleSearchReply> {
  const { limit, offset } = paging(query);
  const typed = searchWords(query.query);
  if (typed.length === 0) return { query: query.query, total: 0, limit, offset, results: [] };
  const words = await correct(typed, 'vehicle');
  const { rows } = await db.query<{ total: number; results: VehicleSearchReply['results'] }>(VEHICLE_SEARCH_SQL, [
    ...prefixQueries(words),
    limit,
    offset,
  ]);
  return { query: query.query, total: rows[0].total, limit, offset, results: rows[0].results };
}
