// The catalog query levels, read from the store: vehicles narrowing group → years → makes →
// models → engines, categories and part types, products with fitment, assets, product info.
// Input has already passed the contract schema; this checks what only the data can tell
// (an unknown part type, an engine of another vehicle) and names the field at fault.
import type {
  Asset,
  CatalogApplicationAssetsReply,
  CatalogApplicationAssetsRequest,
  CatalogCategoriesReply,
  CatalogCategoriesRequest,
  CatalogProductAssetsReply,
  CatalogProductAssetsRequest,
  CatalogProductInfoReply,
  CatalogProductsReply,
  CatalogProductsRequest,
  CatalogVehiclesReply,
  CatalogVehiclesRequest,
  Category,
  Fitment,
  PartType,
  Product,
} from '../../contracts/schemas/catalog';
import type { Queryable } from '../store/store';
import { invalidField } from './catalog-errors';
import { NotFoundError } from '../errors';

export const DEFAULT_TAXONOMY = 'standard';

type ProductRow = Omit<Product, 'fitment' | 'fits' | 'part_type'> & { part_type_id: number; part_type_name: string };

const PRODUCT_COLUMNS = `p.sku, p.mfr_code, p.brand, p.part_number, p.description, p.list_price::float8 AS list_price,
  p.pack_code, pt.id AS part_type_id, pt.name AS part_type_name`;
const PRODUCT_FROM = 'catalog_products p JOIN catalog_part_types pt ON pt.id = p.part_type_id';

export const productOf = ({ part_type_id, part_type_name, ...row }: ProductRow) => ({
  ...row,
  part_type: { id: part_type_id, name: part_type_name },
});

type FitmentRow = Fitment & { sku: number };
const FITMENT_SELECT = `SELECT a.id AS application_id, a.sku, a.base_vehicle_id, v.name AS vehicle,
    a.engine_key AS engine_key_id, e.name AS engine, a.position, a.note
  FROM catalog_applications a
  JOIN catalog_base_vehicles v ON v.id = a.base_vehicle_id
  LEFT JOIN catalog_engines e ON e.key = a.engine_key`;
const fitmentOf = ({ sku: _sku, ...row }: FitmentRow): Fitment => row;

type AssetRow = Asset & { owner: number };
const ASSET_COLUMNS = 'id, kind, url, description, is_primary AS primary';

function groupBy<K, V>(rows: V[], key: (row: V) => K): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

export interface Catalog {
  vehicles(request: CatalogVehiclesRequest): Promise<CatalogVehiclesReply>;
  categories(request: CatalogCategoriesRequest): Promise<CatalogCategoriesReply>;
  products(request: CatalogProductsRequest): Promise<CatalogProductsReply>;
  productAssets(request: CatalogProductAssetsRequest): Promise<CatalogProductAssetsReply>;
  productInfo(sku: number): Promise<CatalogProductInfoReply>;
  applicationAssets(request: CatalogApplicationAssetsRequest): Promise<CatalogApplicationAssetsReply>;
  /** The products with these SKUs (no fitment), for the cart. */
  productsBySku(skus: number[]): Promise<ReturnType<typeof productOf>[]>;
}

/** The rows a query returns; every step below reads the store through it. */
type Rows = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export function createCatalog(db: Queryable): Catalog {
  const rows: Rows = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows;
  return {
    vehicles: (request) => vehicleLevel(rows, request),
    categories: (request) => categoriesOf(rows, request),
    products: (request) => productsOf(rows, request),
    productAssets: (request) => productAssetsOf(rows, request),
    productInfo: (sku) => productInfoOf(rows, sku),
    applicationAssets: (request) => applicationAssetsOf(rows, request),
    productsBySku: (skus) => productsBySku(rows, skus),
  };
}

// Vehicles.

/** Each narrowing field needs the ones before it; say which is missing. */
function requireParents(request: CatalogVehiclesRequest) {
  const order = ['vehicle_group_type_id', 'year_id', 'make_id', 'model_id'] as const;
  const deepest = [...order].reverse().find((f) => request[f] !== undefined);
  if (!deepest) return;
  for (const field of order.slice(0, order.indexOf(deepest))) {
    if (request[field] === undefined) throw invalidField(`/${field}`, `is required when ${deepest} is given`);
  }
}

async function baseVehicle(rows: Rows, id: number) {
  const [row] = await rows<{
    id: number;
    name: string;
    year_id: number;
    make_id: number;
    make_name: string;
    model_id: number;
    model_name: string;
    group_id: number;
    group_name: string;
  }>(
    `SELECT v.id, v.name, v.year_id, mk.id AS make_id, mk.name AS make_name, md.id AS model_id, md.name AS model_name,
            g.id AS group_id, g.name AS group_name
       FROM catalog_base_vehicles v JOIN catalog_makes mk ON mk.id = v.make_id JOIN catalog_models md ON md.id = v.model_id
       JOIN catalog_vehicle_group_types g ON g.id = md.vehicle_group_type_id WHERE v.id = $1`,
    [id],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    year_id: row.year_id,
    make: { id: row.make_id, name: row.make_name },
    model: { id: row.model_id, name: row.model_name },
    vehicle_group_type: { id: row.group_id, name: row.group_name },
  };
}

const enginesOf = (rows: Rows, baseVehicleId: number) =>
  rows<{ id: string; name: string }>(
    `SELECT e.key AS id, e.name FROM catalog_base_vehicle_engines be JOIN catalog_engines e ON e.key = be.engine_key
      WHERE be.base_vehicle_id = $1 ORDER BY e.name`,
    [baseVehicleId],
  );

/** An engine key must belong to the vehicle it is given with. */
async function checkVehicle(rows: Rows, baseVehicleId: number, engineKey: string | undefined, at: string) {
  const vehicle = await baseVehicle(rows, baseVehicleId);
  if (!vehicle) throw invalidField(`${at}/base_vehicle_id`, `${baseVehicleId} is not a base vehicle in the catalog`);
  if (engineKey !== undefined && !(await enginesOf(rows, baseVehicleId)).some((e) => e.id === engineKey)) {
    throw invalidField(`${at}/engine_key_id`, `'${engineKey}' is not an engine of ${vehicle.name}`);
  }
}

const VEHICLES = `catalog_base_vehicles v JOIN catalog_models md ON md.id = v.model_id`;

/** The next level down from the narrowing fields given: groups, years, makes, models, then the vehicle's engines. */
async function vehicleLevel(rows: Rows, request: CatalogVehiclesRequest): Promise<CatalogVehiclesReply> {
  requireParents(request);
  const { vehicle_group_type_id: group, year_id: year, make_id: make, model_id: model } = request;
  if (group === undefined) {
    const items = await rows<{ id: number; name: string }>(
      'SELECT id, name FROM catalog_vehicle_group_types ORDER BY id',
    );
    return { level: 'vehicle_group_types', items };
  }
  if (year === undefined) {
    const years = await rows<{ id: number }>(
      `SELECT DISTINCT v.year_id AS id FROM ${VEHICLES} WHERE md.vehicle_group_type_id = $1 ORDER BY id DESC`,
      [group],
    );
    return { level: 'years', items: years.map(({ id }) => ({ id, name: String(id) })) };
  }
  if (make === undefined) {
    const items = await rows<{ id: number; name: string }>(
      `SELECT DISTINCT mk.id, mk.name FROM ${VEHICLES} JOIN catalog_makes mk ON mk.id = v.make_id
        WHERE md.vehicle_group_type_id = $1 AND v.year_id = $2 ORDER BY mk.name`,
      [group, year],
    );
    return { level: 'makes', items };
  }
  if (model === undefined) {
    const items = await rows<{ id: number; name: string }>(
      `SELECT DISTINCT md.id, md.name FROM ${VEHICLES}
        WHERE md.vehicle_group_type_id = $1 AND v.year_id = $2 AND v.make_id = $3 ORDER BY md.name`,
      [group, year, make],
    );
    return { level: 'models', items };
  }
  return engineLevel(rows, group, year, make, model);
}

/** The one base vehicle the four narrowing fields name, with its engines. */
async function engineLevel(
  rows: Rows,
  group: number,
  year: number,
  make: number,
  model: number,
): Promise<Extract<CatalogVehiclesReply, { level: 'engines' }>> {
  const [found] = await rows<{ id: number }>(
    `SELECT v.id FROM ${VEHICLES} WHERE md.vehicle_group_type_id = $1 AND v.year_id = $2 AND v.make_id = $3 AND v.model_id = $4`,
    [group, year, make, model],
  );
  if (!found)
    throw new NotFoundError(`no base vehicle for year ${year}, make ${make}, model ${model} in vehicle group ${group}`);
  const vehicle = (await baseVehicle(rows, found.id))!;
  return { level: 'engines', base_vehicle: vehicle, items: await enginesOf(rows, found.id) };
}

// Categories and part types.

type CategoryRow = { id: number; name: string; parent_id: number | null };

/** The categories of one top-level category (itself and its sub-categories at any depth); all when no top is asked. */
function categoryScope(all: CategoryRow[], topCategoryId: number | undefined, taxonomy: string): CategoryRow[] {
  if (topCategoryId === undefined) return all;
  const top = all.find((c) => c.id === topCategoryId && c.parent_id === null);
  if (!top) throw invalidField('/top_category_id', `${topCategoryId} is not a top-level category of '${taxonomy}'`);
  const ids = new Set([top.id]);
  // Sub-categories at any depth: keep adding children until nothing new joins.
  for (let grew = true; grew;) {
    grew = false;
    for (const c of all) {
      if (c.parent_id !== null && ids.has(c.parent_id) && !ids.has(c.id)) {
        ids.add(c.id);
        grew = true;
      }
    }
  }
  return all.filter((c) => ids.has(c.id));
}

/** The part types in these categories that have a product fitting the vehicle (and engine, when given). */
function partTypesFitting(rows: Rows, categoryIds: number[], baseVehicleId: number, engineKey: string | undefined) {
  return rows<PartType>(
    `SELECT DISTINCT pt.id, pt.name, pt.category_id FROM catalog_part_types pt
       JOIN catalog_products p ON p.part_type_id = pt.id
       JOIN catalog_applications a ON a.sku = p.sku
      WHERE pt.category_id = ANY($1::int[]) AND a.base_vehicle_id = $2
        AND ($3::text IS NULL OR a.engine_key IS NULL OR a.engine_key = $3)
      ORDER BY pt.name`,
    [categoryIds, baseVehicleId, engineKey ?? null],
  );
}

/** Only the categories leading to one of these part types, with their ancestors. */
function categoriesLeadingTo(all: CategoryRow[], inScope: CategoryRow[], partTypes: PartType[]): CategoryRow[] {
  const keep = new Set<number>();
  const byId = new Map(all.map((c) => [c.id, c]));
  for (const pt of partTypes) {
    for (
      let c = byId.get(pt.category_id);
      c && !keep.has(c.id);
      c = c.parent_id === null ? undefined : byId.get(c.parent_id)
    )
      keep.add(c.id);
  }
  return inScope.filter((c) => keep.has(c.id));
}

async function categoriesOf(rows: Rows, request: CatalogCategoriesRequest): Promise<CatalogCategoriesReply> {
  const taxonomy = request.taxonomy ?? DEFAULT_TAXONOMY;
  const all = await rows<CategoryRow>(
    'SELECT id, name, parent_id FROM catalog_categories WHERE taxonomy = $1 ORDER BY name',
    [taxonomy],
  );
  if (all.length === 0) throw invalidField('/taxonomy', `'${taxonomy}' is not a taxonomy of the catalog`);
  if (request.engine_key_id !== undefined && request.base_vehicle_id === undefined) {
    throw invalidField('/base_vehicle_id', 'is required when engine_key_id is given');
  }
  let inScope = categoryScope(all, request.top_category_id, taxonomy);
  const scopeIds = inScope.map((c) => c.id);
  let partTypes: PartType[];
  if (request.base_vehicle_id !== undefined) {
    await checkVehicle(rows, request.base_vehicle_id, request.engine_key_id, '');
    partTypes = await partTypesFitting(rows, scopeIds, request.base_vehicle_id, request.engine_key_id);
    inScope = categoriesLeadingTo(all, inScope, partTypes);
  } else {
    partTypes = await rows<PartType>(
      'SELECT id, name, category_id FROM catalog_part_types WHERE category_id = ANY($1::int[]) ORDER BY name',
      [scopeIds],
    );
  }
  const what = request.response_items ?? 'all';
  if (what === 'part_types') return { taxonomy, part_types: partTypes };
  const byCategory = groupBy(partTypes, (pt) => pt.category_id);
  const categories: Category[] = inScope.map((c) =>
    what === 'all' ? { ...c, part_types: byCategory.get(c.id) ?? [] } : { ...c },
  );
  return { taxonomy, categories };
}

// Products, their fitment and assets.

async function fitmentFor(rows: Rows, skus: number[], vehicle?: { baseVehicleId: number; engineKey?: string }) {
  if (skus.length === 0) return new Map<number, Fitment[]>();
  const params: unknown[] = [skus];
  let where = 'a.sku = ANY($1::int[])';
  if (vehicle) {
    params.push(vehicle.baseVehicleId, vehicle.engineKey ?? null);
    where += ' AND a.base_vehicle_id = $2 AND ($3::text IS NULL OR a.engine_key IS NULL OR a.engine_key = $3)';
  }
  const found = await rows<FitmentRow>(
    `${FITMENT_SELECT} WHERE ${where} ORDER BY a.sku, v.name, a.position NULLS FIRST, a.id`,
    params,
  );
  const bySku = groupBy(found, (r) => r.sku);
  return new Map([...bySku].map(([sku, list]) => [sku, list.map(fitmentOf)]));
}

async function assetsFor(rows: Rows, column: 'sku' | 'application_id', ids: number[], primaryOnly = false) {
  const found = await rows<AssetRow>(
    `SELECT ${column} AS owner, ${ASSET_COLUMNS} FROM catalog_assets
      WHERE ${column} = ANY($1::int[]) ${primaryOnly ? 'AND is_primary' : ''}
      ORDER BY ${column}, is_primary DESC, id`,
    [ids],
  );
  return groupBy(found, (r) => r.owner);
}
const assetOf = ({ owner: _owner, ...asset }: AssetRow): Asset => asset;

/** Every asked part type must exist: the first unknown one is named by its index. */
async function checkPartTypes(rows: Rows, ids: number[]) {
  const known = new Set(
    (await rows<{ id: number }>('SELECT id FROM catalog_part_types WHERE id = ANY($1::int[])', [ids])).map((r) => r.id),
  );
  const unknown = ids.findIndex((id) => !known.has(id));
  if (unknown >= 0)
    throw invalidField(`/part_types/${unknown}/id`, `${ids[unknown]} is not a part type of the catalog`);
}

async function productsOf(rows: Rows, request: CatalogProductsRequest): Promise<CatalogProductsReply> {
  const ids = request.part_types.map((pt) => pt.id);
  await checkPartTypes(rows, ids);
  const configuration = request.configuration;
  if (configuration)
    await checkVehicle(rows, configuration.base_vehicle_id, configuration.engine_key_id, '/configuration');

  const products = await rows<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM} WHERE p.part_type_id = ANY($1::int[]) ORDER BY pt.name, p.brand, p.part_number`,
    [ids],
  );
  const skus = products.map((p) => p.sku);
  if (!configuration) {
    const fitment = await fitmentFor(rows, skus);
    return { products: products.map((p) => ({ ...productOf(p), fitment: fitment.get(p.sku) ?? [] })) };
  }
  // With a vehicle, fitment lists the applications to that vehicle: the ones that matter.
  const fitting = await fitmentFor(rows, skus, {
    baseVehicleId: configuration.base_vehicle_id,
    engineKey: configuration.engine_key_id,
  });
  const showAll = request.show_all === 1;
  return {
    products: products
      .filter((p) => showAll || fitting.has(p.sku))
      .map((p) => ({
        ...productOf(p),
        fitment: fitting.get(p.sku) ?? [],
        ...(showAll ? { fits: fitting.has(p.sku) } : {}),
      })),
  };
}

async function productAssetsOf(rows: Rows, request: CatalogProductAssetsRequest): Promise<CatalogProductAssetsReply> {
  const skus = [...new Set(request.catalog_skus)];
  const known = new Set(
    (await rows<{ sku: number }>('SELECT sku FROM catalog_products WHERE sku = ANY($1::int[])', [skus])).map(
      (r) => r.sku,
    ),
  );
  const assets = await assetsFor(rows, 'sku', [...known], request.show_all !== true);
  return {
    products: skus.filter((s) => known.has(s)).map((sku) => ({ sku, assets: (assets.get(sku) ?? []).map(assetOf) })),
    missing_skus: skus.filter((s) => !known.has(s)),
  };
}

async function productInfoOf(rows: Rows, sku: number): Promise<CatalogProductInfoReply> {
  const [product] = await rows<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM} WHERE p.sku = $1`, [sku]);
  if (!product) throw new NotFoundError(`SKU ${sku} is not in the catalog`);
  const [attributes, fitment, assets] = await Promise.all([
    rows<{ name: string; value: string }>(
      'SELECT name, value FROM catalog_product_attributes WHERE sku = $1 ORDER BY sort_order',
      [sku],
    ),
    fitmentFor(rows, [sku]),
    assetsFor(rows, 'sku', [sku]),
  ]);
  return {
    product: {
      ...productOf(product),
      attributes,
      fitment: fitment.get(sku) ?? [],
      assets: (assets.get(sku) ?? []).map(assetOf),
    },
  };
}

async function applicationAssetsOf(
  rows: Rows,
  request: CatalogApplicationAssetsRequest,
): Promise<CatalogApplicationAssetsReply> {
  const ids = [...new Set(request.application_ids)];
  const found = await rows<FitmentRow>(`${FITMENT_SELECT} WHERE a.id = ANY($1::int[])`, [ids]);
  const byId = new Map(found.map((r) => [r.application_id, r]));
  const assets = await assetsFor(rows, 'application_id', [...byId.keys()]);
  return {
    applications: ids
      .filter((id) => byId.has(id))
      .map((id) => {
        const row = byId.get(id)!;
        return {
          application_id: id,
          sku: row.sku,
          fitment: fitmentOf(row),
          assets: (assets.get(id) ?? []).map(assetOf),
        };
      }),
    missing_application_ids: ids.filter((id) => !byId.has(id)),
  };
}

async function productsBySku(rows: Rows, skus: number[]) {
  const found = await rows<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM ${PRODUCT_FROM} WHERE p.sku = ANY($1::int[])`, [
    skus,
  ]);
  return found.map(productOf);
}
