import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Closed, Id, Key, ListOf, MAX_INT4, Quantity, REFUSED_CHARACTERS, ReplyId, ReplyText, Text } from './common';

// Catalog, search, catalog launch and cart. The specification gives the catalog request
// fields (names and types) and nothing else: which are required, every response body, and
// the token and cart bodies are ours, documented in docs/catalog.md.

const Named = <T extends TSchema>(id: T) => Closed({ id, name: ReplyText() });
/** A string from a fixed list: one `enum` keyword, so a wrong value gets one clear message. */
const OneOf = <const V extends readonly string[]>(values: V, description?: string) =>
  Type.Unsafe<V[number]>(Type.String({ enum: [...values], description }));

// ---- requests (closed: an unknown field is a 4422 naming it) ----

/**
 * The vehicle query narrows one level per field given: nothing → vehicle group types;
 * group → years; + year → makes; + make → models; + model → engines of that base vehicle.
 * A field needs the ones before it (checked by the endpoint, which names the missing field).
 */
export const CatalogVehiclesRequest = Closed(
  {
    vehicle_group_type_id: Type.Optional(Key('Vehicle group type, e.g. 1 passenger car & light truck')),
    year_id: Type.Optional(Type.Integer({ minimum: 1896, maximum: 2100, description: 'Model year, e.g. 2015' })),
    make_id: Type.Optional(Key()),
    model_id: Type.Optional(Key()),
  },
  { title: 'Catalog vehicles — request' },
);
export type CatalogVehiclesRequest = Static<typeof CatalogVehiclesRequest>;

export const CATEGORY_RESPONSE_ITEMS = ['all', 'categories', 'part_types'] as const;

export const CatalogCategoriesRequest = Closed(
  {
    response_items: Type.Optional(
      OneOf(
        CATEGORY_RESPONSE_ITEMS,
        "'all' (default): categories with their part types; 'categories': without; 'part_types': a flat list",
      ),
    ),
    taxonomy: Type.Optional(Id("Taxonomy name; 'standard' is the seeded one (default)")),
    top_category_id: Type.Optional(Key('Only this top-level category and its sub-categories')),
    base_vehicle_id: Type.Optional(Key('Only part types with a product that fits this base vehicle')),
    engine_key_id: Type.Optional(Id('With base_vehicle_id: only part types fitting that engine too')),
  },
  { title: 'Catalog categories — request' },
);
export type CatalogCategoriesRequest = Static<typeof CatalogCategoriesRequest>;

export const PartTypeRef = Closed({
  id: Key('Part type id'),
  name: Type.Optional(Text('Informational; the id decides')),
});
export type PartTypeRef = Static<typeof PartTypeRef>;

export const VehicleConfiguration = Closed(
  {
    base_vehicle_id: Key(),
    engine_key_id: Type.Optional(Id()),
  },
  { description: 'The vehicle the products must fit' },
);
export type VehicleConfiguration = Static<typeof VehicleConfiguration>;

export const CatalogProductsRequest = Closed(
  {
    part_types: ListOf(PartTypeRef, { minItems: 1 }),
    configuration: Type.Optional(VehicleConfiguration),
    show_all: Type.Optional(
      Type.Unsafe<0 | 1>(
        Type.Integer({
          enum: [0, 1],
          description:
            '0 (default): only products fitting the configuration; 1: every product of the part types, each marked fits true/false',
        }),
      ),
    ),
  },
  { title: 'Catalog products — request' },
);
export type CatalogProductsRequest = Static<typeof CatalogProductsRequest>;

export const CatalogProductAssetsRequest = Closed(
  {
    catalog_skus: ListOf(Key('Catalog SKU'), { minItems: 1 }),
    show_all: Type.Optional(
      Type.Boolean({ description: 'false (default): the primary asset of each SKU; true: every asset' }),
    ),
  },
  { title: 'Catalog product assets — request' },
);
export type CatalogProductAssetsRequest = Static<typeof CatalogProductAssetsRequest>;

export const CatalogProductInfoRequest = Closed(
  { sku: Key('Catalog SKU') },
  { title: 'Catalog product info — request' },
);
export type CatalogProductInfoRequest = Static<typeof CatalogProductInfoRequest>;

export const CatalogApplicationAssetsRequest = Closed(
  { application_ids: ListOf(Key('Application (product-to-vehicle fitment) id'), { minItems: 1 }) },
  { title: 'Catalog application assets — request' },
);
export type CatalogApplicationAssetsRequest = Static<typeof CatalogApplicationAssetsRequest>;

export const SEARCH_MAX_LIMIT = 50;
export const SEARCH_DEFAULT_LIMIT = 10;

/** Something other than white space, and (as every request string) no NUL or lone surrogate. */
export const SEARCH_QUERY_PATTERN = `^[^${REFUSED_CHARACTERS}]*[^\\s${REFUSED_CHARACTERS}][^${REFUSED_CHARACTERS}]*$`;

/** Query string of both search endpoints, after limit/offset are read as integers. */
export const SearchQuery = Closed(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: SEARCH_QUERY_PATTERN,
      description: 'Words to look for; typos and prefixes are tolerated',
    }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_MAX_LIMIT, default: SEARCH_DEFAULT_LIMIT })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INT4, default: 0 })),
  },
  { title: 'Search — query parameters' },
);
export type SearchQuery = Static<typeof SearchQuery>;

// ---- responses ----

export const NamedItem = Named(Key());
export type NamedItem = Static<typeof NamedItem>;

export const EngineItem = Closed({
  id: ReplyId('engine_key_id'),
  name: ReplyText('e.g. 1.8L L4 DOHC'),
});
export type EngineItem = Static<typeof EngineItem>;

export const BaseVehicle = Closed({
  id: Key('base_vehicle_id'),
  name: ReplyText('e.g. 2015 Honda Civic'),
  year_id: Type.Integer(),
  make: NamedItem,
  model: NamedItem,
  vehicle_group_type: NamedItem,
});
export type BaseVehicle = Static<typeof BaseVehicle>;

// Extra fields are spread in by the caller, not passed as an `extra = {}` parameter: that
// parameter is typed `{}`, so Static<> dropped the fields the schema had (base_vehicle).
const levelFields = <L extends string, T extends TSchema>(name: L, item: T) => ({
  level: Type.Literal(name),
  items: ListOf(item),
});
const level = <L extends string, T extends TSchema>(name: L, item: T) => Closed(levelFields(name, item));

export const CatalogVehiclesReply = Type.Union(
  [
    level('vehicle_group_types', NamedItem),
    level('years', NamedItem),
    level('makes', NamedItem),
    level('models', NamedItem),
    Closed({ ...levelFields('engines', EngineItem), base_vehicle: BaseVehicle }),
  ],
  { title: 'Catalog vehicles — reply', description: 'The next level down from the fields given, with ids and names' },
);
export type CatalogVehiclesReply = Static<typeof CatalogVehiclesReply>;

export const PartType = Closed({ id: Key(), name: ReplyText(), category_id: Key() });
export type PartType = Static<typeof PartType>;

export const Category = Closed({
  id: Key(),
  name: ReplyText(),
  parent_id: Type.Union([Key(), Type.Null()]),
  part_types: Type.Optional(ListOf(PartType)),
});
export type Category = Static<typeof Category>;

export const CatalogCategoriesReply = Closed(
  {
    taxonomy: ReplyText(),
    categories: Type.Optional(ListOf(Category)),
    part_types: Type.Optional(ListOf(PartType)),
  },
  { title: 'Catalog categories — reply' },
);
export type CatalogCategoriesReply = Static<typeof CatalogCategoriesReply>;

export const Fitment = Closed({
  application_id: Key(),
  base_vehicle_id: Key(),
  vehicle: ReplyText('e.g. 2015 Honda Civic'),
  engine_key_id: Type.Union([ReplyId(), Type.Null()], { description: 'null: fits every engine of the base vehicle' }),
  engine: Type.Union([ReplyText(), Type.Null()]),
  position: Type.Union([ReplyText(), Type.Null()], { description: 'e.g. Front, Rear' }),
  note: Type.Union([ReplyText(), Type.Null()]),
});
export type Fitment = Static<typeof Fitment>;

const productFields = {
  sku: Key('Catalog SKU'),
  mfr_code: ReplyId('Manufacturer code, as sent in item inquiry'),
  brand: ReplyText(),
  part_number: ReplyId(),
  description: ReplyText(),
  part_type: Named(Key()),
  list_price: Type.Number({ minimum: 0 }),
  pack_code: ReplyId(),
};

export const Product = Closed({
  ...productFields,
  fitment: ListOf(Fitment),
  fits: Type.Optional(Type.Boolean({ description: 'With a configuration and show_all 1: whether it fits' })),
});
export type Product = Static<typeof Product>;

export const CatalogProductsReply = Closed({ products: ListOf(Product) }, { title: 'Catalog products — reply' });
export type CatalogProductsReply = Static<typeof CatalogProductsReply>;

export const ASSET_KINDS = ['image', 'spec_sheet', 'installation', 'video', 'diagram'] as const;

export const Asset = Closed({
  id: Key(),
  kind: OneOf(ASSET_KINDS),
  url: Type.String({ pattern: '^https?://', description: 'Absolute http(s) URL' }),
  description: ReplyText(),
  primary: Type.Boolean(),
});
export type Asset = Static<typeof Asset>;

export const CatalogProductAssetsReply = Closed(
  {
    products: ListOf(Closed({ sku: Key(), assets: ListOf(Asset) })),
    missing_skus: ListOf(Key(), { description: 'Requested SKUs the catalog does not have' }),
  },
  { title: 'Catalog product assets — reply' },
);
export type CatalogProductAssetsReply = Static<typeof CatalogProductAssetsReply>;

export const CatalogProductInfoReply = Closed(
  {
    product: Closed({
      ...productFields,
      attributes: ListOf(Closed({ name: ReplyText(), value: ReplyText() })),
      fitment: ListOf(Fitment),
      assets: ListOf(Asset),
    }),
  },
  { title: 'Catalog product info — reply' },
);
export type CatalogProductInfoReply = Static<typeof CatalogProductInfoReply>;

export const CatalogApplicationAssetsReply = Closed(
  {
    applications: ListOf(Closed({ application_id: Key(), sku: Key(), fitment: Fitment, assets: ListOf(Asset) })),
    missing_application_ids: ListOf(Key()),
  },
  { title: 'Catalog application assets — reply' },
);
export type CatalogApplicationAssetsReply = Static<typeof CatalogApplicationAssetsReply>;

const page = <T extends TSchema>(result: T, title: string) =>
  Closed(
    {
      query: ReplyText(),
      total: Type.Integer({ minimum: 0, description: 'Matches in all, beyond this page' }),
      limit: Type.Integer({ minimum: 1 }),
      offset: Type.Integer({ minimum: 0 }),
      results: ListOf(result, { description: 'Best match first' }),
    },
    { title },
  );

export const ProductSearchResult = Closed({
  ...productFields,
  score: Type.Number({ description: 'Relevance; higher is better' }),
});
export type ProductSearchResult = Static<typeof ProductSearchResult>;

export const VehicleSearchResult = Closed({
  base_vehicle: BaseVehicle,
  engines: ListOf(EngineItem),
  score: Type.Number({ description: 'Relevance; higher is better' }),
});
export type VehicleSearchResult = Static<typeof VehicleSearchResult>;

export const ProductSearchReply = page(ProductSearchResult, 'Product search — reply');
export type ProductSearchReply = Static<typeof ProductSearchReply>;
export const VehicleSearchReply = page(VehicleSearchResult, 'Vehicle search — reply');
export type VehicleSearchReply = Static<typeof VehicleSearchReply>;

// ---- catalog launch (v3.1) and cart ----

const Uuid = (description?: string) =>
  Type.String({
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    description,
  });

export const CatalogTokenRequest = Closed(
  { cart_id: Type.Optional(Uuid('Resume this cart; a fresh one when omitted')) },
  { title: 'Catalog token — request' },
);
export type CatalogTokenRequest = Static<typeof CatalogTokenRequest>;

export const CatalogTokenReply = Closed(
  {
    token: ReplyId('Catalog session token: Authorization: Bearer <token> on the catalog-session endpoints'),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ minimum: 1, description: 'Seconds' }),
    expires_at: Type.String({ description: 'ISO 8601 UTC' }),
    cart_id: Uuid(),
    launch_url: Type.String({ description: 'Open in a browser to run the catalog session' }),
  },
  { title: 'Catalog token — reply' },
);
export type CatalogTokenReply = Static<typeof CatalogTokenReply>;

export const CartItem = Closed({
  id: ReplyId('Cart line id'),
  sku: Type.Union([Key(), Type.Null()]),
  mfr_code: ReplyId(),
  part_number: ReplyId(),
  description: ReplyText(),
  quantity: Type.Number({ exclusiveMinimum: 0 }),
  location_id: ReplyId(),
  location_description: ReplyText(),
  price: Type.Number({
    minimum: 0,
    description:
      "Unit price the seller quoted this buyer at that location (item inquiry's cost) when the item was added or changed",
  }),
});
export type CartItem = Static<typeof CartItem>;

export const Cart = Closed(
  {
    cart_id: Uuid(),
    created_at: Type.String(),
    updated_at: Type.String(),
    items: ListOf(CartItem),
    total: Type.Number({ minimum: 0, description: 'Sum of quantity × price' }),
  },
  { title: 'Cart' },
);
export type Cart = Static<typeof Cart>;

export const CartAddItemRequest = Closed(
  { sku: Key('Catalog SKU'), location_id: Id(), quantity: Quantity() },
  { title: 'Cart — add item' },
);
export type CartAddItemRequest = Static<typeof CartAddItemRequest>;

export const CartChangeItemRequest = Closed(
  { location_id: Type.Optional(Id()), quantity: Type.Optional(Quantity()) },
  { title: 'Cart — change item', minProperties: 1 },
);
export type CartChangeItemRequest = Static<typeof CartChangeItemRequest>;

/** GET /v2_1/catalog/cart/{cart_id}: the path parameter. */
export const CartPath = Closed({ cart_id: Uuid('The cart id from the catalog token reply') }, { title: 'Cart — path' });
export type CartPath = Static<typeof CartPath>;

/** PATCH/DELETE …/cart/items/{item_id}: a cart line id, a positive bigint (bigserial) in digits. */
export const CartItemPath = Closed(
  {
    item_id: Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: 'Cart line id from the cart: 1 to 18 digits' }),
  },
  { title: 'Cart item — path' },
);
export type CartItemPath = Static<typeof CartItemPath>;

/** Catalog session: where a catalog product can be had, priced by the sellers (an item inquiry). */
export const ProductAvailabilityRequest = Closed(
  { sku: Key('Catalog SKU') },
  { title: 'Product availability — request' },
);
export type ProductAvailabilityRequest = Static<typeof ProductAvailabilityRequest>;

export const ProductAvailabilityReply = Closed(
  {
    sku: Key(),
    mfr_code: ReplyId(),
    part_number: ReplyId(),
    description: ReplyText(),
    locations: ListOf(
      Closed({
        id: ReplyId(),
        description: ReplyText(),
        can_order: Type.Boolean(),
        sort_order: Type.Integer(),
        price: Type.Number({ minimum: 0, description: "The buyer's unit price there (item inquiry cost)" }),
        list_price: Type.Number({ minimum: 0 }),
        quantity_available: Type.Number({ minimum: 0 }),
      }),
      {
        description:
          "The buyer's locations whose seller quotes the part, in the buyer's sort order; empty when none does",
      },
    ),
  },
  { title: 'Product availability — reply' },
);
export type ProductAvailabilityReply = Static<typeof ProductAvailabilityReply>;

export const CatalogSessionReply = Closed(
  {
    cart_id: Uuid(),
    username: ReplyText(),
    expires_at: Type.String(),
    locations: ListOf(
      Closed({ id: ReplyId(), description: ReplyText(), can_order: Type.Boolean(), sort_order: Type.Integer() }),
    ),
  },
  { title: 'Catalog session' },
);
export type CatalogSessionReply = Static<typeof CatalogSessionReply>;

/** Catalog, search and cart payloads by operation and role, alongside PAYLOADS. */
export const CATALOG_PAYLOADS = {
  'catalog-vehicles': { request: CatalogVehiclesRequest, reply: CatalogVehiclesReply },
  'catalog-categories': { request: CatalogCategoriesRequest, reply: CatalogCategoriesReply },
  'catalog-products': { request: CatalogProductsRequest, reply: CatalogProductsReply },
  'catalog-product-assets': { request: CatalogProductAssetsRequest, reply: CatalogProductAssetsReply },
  'catalog-product-info': { request: CatalogProductInfoRequest, reply: CatalogProductInfoReply },
  'catalog-application-assets': { request: CatalogApplicationAssetsRequest, reply: CatalogApplicationAssetsReply },
  'search-products': { request: SearchQuery, reply: ProductSearchReply },
  'search-vehicles': { request: SearchQuery, reply: VehicleSearchReply },
  'catalog-token': { request: CatalogTokenRequest, reply: CatalogTokenReply },
  cart: { request: CartPath, reply: Cart },
  'cart-add-item': { request: CartAddItemRequest, reply: Cart },
  'cart-change-item': { request: CartChangeItemRequest, reply: Cart },
  'catalog-session': { reply: CatalogSessionReply },
  'product-availability': { request: ProductAvailabilityRequest, reply: ProductAvailabilityReply },
} as const satisfies Record<string, Record<string, TSchema>>;
