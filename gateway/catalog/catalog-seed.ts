// Loads seeds/catalog.json — a small, realistic catalog — into the store. Idempotent: every
// row is upserted by its id in one transaction, so running it at each start keeps the demo
// catalog current without duplicating rows. Carts and sessions are never touched.
import { readFile } from 'node:fs/promises';
import { packagePath } from '../../shared/package-root';
import type { Queryable, Store } from '../store/store';

export const CATALOG_SEED_FILE = packagePath('seeds', 'catalog.json');

interface SeedAsset {
  id: number;
  kind: string;
  url: string;
  description: string;
  primary: boolean;
}

export interface CatalogSeed {
  taxonomy: string;
  vehicle_group_types: { id: number; name: string }[];
  makes: { id: number; name: string }[];
  models: { id: number; make_id: number; vehicle_group_type_id: number; name: string }[];
  engines: { key: string; name: string }[];
  base_vehicles: { id: number; year: number; make_id: number; model_id: number; engines: string[] }[];
  categories: { id: number; parent_id: number | null; name: string }[];
  part_types: { id: number; category_id: number; name: string }[];
  products: {
    sku: number;
    mfr_code: string;
    brand: string;
    part_number: string;
    description: string;
    part_type_id: number;
    list_price: number;
    pack_code: string;
    attributes: { name: string; value: string }[];
    assets: SeedAsset[];
    applications: {
      id: number;
      base_vehicle_id: number;
      engine_key: string | null;
      position: string | null;
      note: string | null;
      assets: SeedAsset[];
    }[];
  }[];
}

export async function readCatalogSeed(file: string = CATALOG_SEED_FILE): Promise<CatalogSeed> {
  return JSON.parse(await readFile(file, 'utf8')) as CatalogSeed;
}

/** Upserts `rows` into `table` in one statement: the JSON goes in as a single parameter. */
async function upsert(tx: Queryable, table: string, columns: Record<string, string>, key: string[], rows: unknown[]) {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const definition = names.map((n) => `${n} ${columns[n]}`).join(', ');
  const updates = names.filter((n) => !key.includes(n)).map((n) => `${n} = EXCLUDED.${n}`);
  await tx.query(
    `INSERT INTO ${table} (${names.join(', ')})
     SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${definition})
     ON CONFLICT (${key.join(', ')}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`,
    [JSON.stringify(rows)],
  );
}

export async function seedCatalog(
  store: Store,
  seed?: CatalogSeed,
): Promise<{ products: number; baseVehicles: number }> {
  const catalog = seed ?? (await readCatalogSeed());
  await store.transaction(async (tx) => {
    await upsertVehicles(tx, catalog);
    await upsertCategories(tx, catalog);
    await upsertProducts(tx, catalog);
    await deriveSearchWords(tx);
  });
  return { products: catalog.products.length, baseVehicles: catalog.base_vehicles.length };
}

/** Vehicle groups, makes, models, engines, base vehicles and their engines. */
async function upsertVehicles(tx: Queryable, catalog: CatalogSeed): Promise<void> {
  await upsert(tx, 'catalog_vehicle_group_types', { id: 'int', name: 'text' }, ['id'], catalog.vehicle_group_types);
  await upsert(tx, 'catalog_makes', { id: 'int', name: 'text' }, ['id'], catalog.makes);
  await upsert(
    tx,
    'catalog_models',
    { id: 'int', make_id: 'int', vehicle_group_type_id: 'int', name: 'text' },
    ['id'],
    catalog.models,
  );
  await upsert(tx, 'catalog_engines', { key: 'text', name: 'text' }, ['key'], catalog.engines);
  await upsert(
    tx,
    'catalog_base_vehicles',
    { id: 'int', year_id: 'int', make_id: 'int', model_id: 'int' },
    ['id'],
    catalog.base_vehicles.map((v) => ({ ...v, year_id: v.year })),
  );
  await upsert(
    tx,
    'catalog_base_vehicle_engines',
    { base_vehicle_id: 'int', engine_key: 'text' },
    ['base_vehicle_id', 'engine_key'],
    catalog.base_vehicles.flatMap((v) => v.engines.map((engine_key) => ({ base_vehicle_id: v.id, engine_key }))),
  );
}

/** The taxonomy's categories and their part types. */
async function upsertCategories(tx: Queryable, catalog: CatalogSeed): Promise<void> {
  // Parents before children: the foreign key on parent_id is checked row by row.
  const byDepth = [...catalog.categories].sort((a, b) => Number(a.parent_id !== null) - Number(b.parent_id !== null));
  await upsert(
    tx,
    'catalog_categories',
    { id: 'int', taxonomy: 'text', parent_id: 'int', name: 'text' },
    ['id'],
    byDepth.map((c) => ({ ...c, taxonomy: catalog.taxonomy })),
  );
  await upsert(tx, 'catalog_part_types', { id: 'int', category_id: 'int', name: 'text' }, ['id'], catalog.part_types);
}

/** Products with their attributes, applications (fitment) and assets. */
async function upsertProducts(tx: Queryable, catalog: CatalogSeed): Promise<void> {
  const productAssets = catalog.products.flatMap((p) =>
    p.assets.map((a) => ({ ...a, sku: p.sku, is_primary: a.primary })),
  );
  const applications = catalog.products.flatMap((p) => p.applications.map((a) => ({ ...a, sku: p.sku })));
  const applicationAssets = applications.flatMap((a) =>
    a.assets.map((asset) => ({ ...asset, application_id: a.id, is_primary: asset.primary })),
  );
  await upsert(
    tx,
    'catalog_products',
    {
      sku: 'int',
      mfr_code: 'text',
      brand: 'text',
      part_number: 'text',
      description: 'text',
      part_type_id: 'int',
      list_price: 'numeric',
      pack_code: 'text',
    },
    ['sku'],
    catalog.products,
  );
  await upsert(
    tx,
    'catalog_product_attributes',
    { sku: 'int', sort_order: 'int', name: 'text', value: 'text' },
    ['sku', 'sort_order'],
    catalog.products.flatMap((p) => p.attributes.map((a, i) => ({ ...a, sku: p.sku, sort_order: i + 1 }))),
  );
  await upsert(
    tx,
    'catalog_applications',
    { id: 'int', sku: 'int', base_vehicle_id: 'int', engine_key: 'text', position: 'text', note: 'text' },
    ['id'],
    applications,
  );
  const assetColumns = {
    id: 'int',
    sku: 'int',
    application_id: 'int',
    kind: 'text',
    url: 'text',
    description: 'text',
    is_primary: 'boolean',
  };
  await upsert(tx, 'catalog_assets', assetColumns, ['id'], [...productAssets, ...applicationAssets]);
}

/** Words search matches on, derived from the rows above so they never disagree. */
async function deriveSearchWords(tx: Queryable): Promise<void> {
  await tx.query(`
    UPDATE catalog_base_vehicles v
       SET name = v.year_id || ' ' || mk.name || ' ' || md.name,
           -- "F-150" is also findable as "F150".
           search_text = v.year_id || ' ' || mk.name || ' ' || md.name || ' ' ||
             regexp_replace(md.name, '[^[:alnum:]]+', '', 'g') || ' ' || g.name || ' ' ||
             coalesce((SELECT string_agg(e.name, ' ' ORDER BY e.key) FROM catalog_base_vehicle_engines be
                        JOIN catalog_engines e ON e.key = be.engine_key WHERE be.base_vehicle_id = v.id), '')
      FROM catalog_makes mk, catalog_models md, catalog_vehicle_group_types g
     WHERE mk.id = v.make_id AND md.id = v.model_id AND g.id = md.vehicle_group_type_id`);
  await tx.query(`
    UPDATE catalog_products p
       SET search_names = pt.name || ' ' || c.name,
           search_vehicles = coalesce((
             SELECT string_agg(DISTINCT mk.name || ' ' || md.name || ' ' || regexp_replace(md.name, '[^[:alnum:]]+', '', 'g'), ' ')
               FROM catalog_applications a
               JOIN catalog_base_vehicles v ON v.id = a.base_vehicle_id
               JOIN catalog_makes mk ON mk.id = v.make_id
               JOIN catalog_models md ON md.id = v.model_id
              WHERE a.sku = p.sku), '')
      FROM catalog_part_types pt JOIN catalog_categories c ON c.id = pt.category_id
     WHERE pt.id = p.part_type_id`);
  await tx.query('DELETE FROM catalog_search_words');
  await tx.query(`
    INSERT INTO catalog_search_words (kind, word)
    SELECT DISTINCT kind, word FROM (
      SELECT 'product' AS kind, regexp_split_to_table(lower(part_number || ' ' || brand || ' ' || description || ' ' ||
               search_names || ' ' || search_vehicles), '[^[:alnum:]]+') AS word FROM catalog_products
      UNION ALL
      SELECT 'vehicle', regexp_split_to_table(lower(search_text), '[^[:alnum:]]+') FROM catalog_base_vehicles
    ) w WHERE word <> ''`);
}
