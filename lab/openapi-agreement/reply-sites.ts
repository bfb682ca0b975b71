// The places of the contract's four reply schemas (seller.openapi.json): each property, with
// its JSON path in the reply, its schema's pointer in the document and whether its parent
// requires it; and the values a mock seller's replies carry there. Pure.

type Json = Record<string, unknown>;

export const REPLY_COMPONENTS = {
  item_inquiry: 'ItemInquirySellerReply',
  place_order: 'PlaceOrderSellerReply',
  invoice: 'InvoiceSellerReply',
  statement: 'StatementSellerReply',
} as const;
export type Service = keyof typeof REPLY_COMPONENTS;
export const SERVICES = Object.keys(REPLY_COMPONENTS) as Service[];
export const REQUEST_COMPONENTS: Record<Service, string> = {
  item_inquiry: 'ItemInquirySellerRequest',
  place_order: 'PlaceOrderSellerRequest',
  invoice: 'InvoiceSellerRequest',
  statement: 'StatementSellerRequest',
};

export interface ReplySite {
  service: Service;
  /** Property names and `*` for an array's items, from the reply's root. */
  segments: string[];
  /** `$.items[*].locations[*].cost` */
  path: string;
  /** The property's schema, as a pointer into the document. */
  pointer: string;
  /** The parent object schema's pointer (whose `required` lists the property, or not). */
  parent: string;
  name: string;
  required: boolean;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const child = (at: string, ...tokens: string[]) =>
  at + tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

export const pathText = (segments: string[]) => '$' + segments.map((s) => (s === '*' ? '[*]' : `.${s}`)).join('');

/** The node at a JSON pointer (no $ref followed: the contract's reply schemas are written out). */
export function at(document: unknown, pointer: string): unknown {
  let node = document;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) || Array.isArray(node) ? (node as Json)[token] : undefined;
  }
  return node;
}

/** Every property of every reply (or request) schema, depth first, in the document's order. */
export function replySites(document: Json, components: Record<Service, string> = REPLY_COMPONENTS): ReplySite[] {
  const sites: ReplySite[] = [];
  const walk = (service: Service, pointer: string, segments: string[]) => {
    const schema = at(document, pointer);
    if (!isObject(schema)) return;
    if (isObject(schema.items)) walk(service, child(pointer, 'items'), [...segments, '*']);
    if (!isObject(schema.properties)) return;
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    for (const name of Object.keys(schema.properties)) {
      const own = [...segments, name];
      const site = {
        service,
        segments: own,
        path: pathText(own),
        pointer: child(pointer, 'properties', name),
        parent: pointer,
        name,
        required: required.includes(name),
      };
      sites.push(site);
      walk(service, site.pointer, own);
    }
  };
  for (const service of SERVICES) walk(service, child('', 'components', 'schemas', components[service]), []);
  return sites;
}

/** The values at `segments` in a reply, each with its parent and key (so it can be changed in place). */
export function occurrences(reply: unknown, segments: string[]): { parent: Json; key: string; value: unknown }[] {
  let level: { parent: Json; key: string; value: unknown }[] = [{ parent: { root: reply }, key: 'root', value: reply }];
  for (const segment of segments) {
    const next: typeof level = [];
    for (const { value } of level) {
      if (segment === '*') {
        if (Array.isArray(value))
          for (const [i, item] of value.entries())
            next.push({ parent: value as unknown as Json, key: String(i), value: item });
      } else if (isObject(value) && Object.hasOwn(value, segment))
        next.push({ parent: value, key: segment, value: value[segment] });
    }
    level = next;
  }
  return level;
}

/** The parents at `segments` minus its last: the objects where the property could be. */
export const parentsOf = (reply: unknown, segments: string[]): Json[] =>
  occurrences(reply, segments.slice(0, -1))
    .map((o) => o.value)
    .filter(isObject);
