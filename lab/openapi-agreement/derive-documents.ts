// The corpus: vendor documents derived from the contract's seller API document, one change
// each, by kind; and with each, the witness — how a seller that answers exactly as that
// document says uses the freedom the change gives it (a field it no longer sends, a value its
// enum now allows, a null, a string past the contract's bound). Deterministic: the same
// documents in the same order on every run. Pure.
import {
  at,
  child,
  occurrences,
  parentsOf,
  REPLY_COMPONENTS,
  replySites,
  REQUEST_COMPONENTS,
  SERVICES,
  type ReplySite,
  type Service,
} from './reply-sites';

type Json = Record<string, any>;

export interface Witness {
  /** Changes a reply of `service` in place, as the seller of the document would answer. */
  reply?: (reply: unknown, service: Service) => void;
  /** The media type the seller's replies declare (default application/json). */
  replyType?: string;
}

export interface Derived {
  index: number;
  kind: Kind;
  /** What changed, and where. */
  change: string;
  document: Json;
  witness: Witness;
  /** The services whose exchanges the change can touch; the others answer as the contract's document. */
  services: readonly Service[];
}

export const KINDS = [
  'field-dropped',
  'field-renamed',
  'field-retyped',
  'required-dropped',
  'required-added',
  'enum-narrowed',
  'enum-widened',
  'nullable-3.0',
  'nullable-3.1',
  'bound-min-wider',
  'bound-max-wider',
  'bound-max-narrower',
  'format-dropped',
  'pattern-dropped',
  'extras-closed',
  'extras-typed',
  'allof-split',
  'allof-closed-parts',
  'oneof-anyof-rewrite',
  'anyof-widened',
  'reply-media-type',
  'wrong-path',
  'wrong-method',
  'request-media-type',
  'request-field-dropped',
  'request-required-added',
  'request-enum-narrowed',
  'request-retyped',
] as const;
export type Kind = (typeof KINDS)[number];

const clone = (value: Json): Json => structuredClone(value);
const typeOf = (schema: Json): string | undefined => (typeof schema.type === 'string' ? schema.type : undefined);
const misspelled = (name: string) => (name.length > 3 ? name.slice(0, -2) + name.at(-1) : `${name}_`);

interface Candidate {
  change: string;
  edit: (doc: Json) => void;
  witness: Witness;
  services: readonly Service[];
}

/** Applies `fn` to every value at the site in a reply of the site's service. */
const atEvery =
  (site: ReplySite, fn: (o: { parent: Json; key: string; value: unknown }) => void): Witness['reply'] =>
  (reply, service) => {
    if (service === site.service) for (const o of occurrences(reply, site.segments)) fn(o);
  };

/** A value of the type that is not the site's: what a retyped field carries. */
function retyped(type: string): { to: string; value: (old: unknown) => unknown } | undefined {
  switch (type) {
    case 'string':
      return { to: 'integer', value: () => 7 };
    case 'number':
    case 'integer':
      return { to: 'string', value: (old) => String(old) };
    case 'array':
      return { to: 'object', value: () => ({}) };
    case 'object':
      return { to: 'string', value: () => 'x' };
    default:
      return undefined;
  }
}

interface Context {
  base: Json;
  seen: (site: ReplySite) => unknown[];
  add: (kind: Kind, c: Candidate) => void;
}

const schemaOf = (doc: Json, site: ReplySite) => at(doc, site.pointer) as Json;
const parentOf = (doc: Json, site: ReplySite) => at(doc, site.parent) as Json;
function dropRequired(doc: Json, site: ReplySite): void {
  const parent = parentOf(doc, site);
  if (Array.isArray(parent.required)) parent.required = parent.required.filter((n: string) => n !== site.name);
}

/** A property dropped, renamed, retyped; required changed either way. */
function fieldChanges({ base, seen, add }: Context, site: ReplySite): void {
  const services = [site.service];
  const schema = schemaOf(base, site);
  const type = typeOf(schema);
  const where = `${site.service} ${site.path}`;
  add('field-dropped', {
    change: `${where} dropped`,
    edit: (doc) => {
      delete parentOf(doc, site).properties[site.name];
      dropRequired(doc, site);
    },
    witness: { reply: atEvery(site, ({ parent, key }) => delete parent[key]) },
    services,
  });
  const renamed = misspelled(site.name);
  add('field-renamed', {
    change: `${where} renamed ${renamed}`,
    edit: (doc) => {
      const parent = parentOf(doc, site);
      parent.properties = Object.fromEntries(
        Object.entries(parent.properties).map(([k, v]) => [k === site.name ? renamed : k, v]),
      );
      if (Array.isArray(parent.required))
        parent.required = parent.required.map((n: string) => (n === site.name ? renamed : n));
    },
    witness: {
      reply: atEvery(site, ({ parent, key, value }) => {
        delete parent[key];
        parent[renamed] = value;
      }),
    },
    services,
  });
  const other = type === undefined ? undefined : retyped(type);
  if (other !== undefined && schema.enum === undefined)
    add('field-retyped', {
      change: `${where} ${type} → ${other.to}`,
      edit: (doc) => {
        schemaOf(doc, site).type = other.to;
      },
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = other.value(o.value))) },
      services,
    });
  if (site.required)
    add('required-dropped', {
      change: `${where} optional`,
      edit: (doc) => dropRequired(doc, site),
      witness: { reply: atEvery(site, ({ parent, key }) => delete parent[key]) },
      services,
    });
  else {
    const sample = seen(site)[0];
    add('required-added', {
      change: `${where} required`,
      edit: (doc) => {
        const parent = parentOf(doc, site);
        parent.required = [...(parent.required ?? []), site.name];
      },
      witness: {
        reply: (reply, service) => {
          if (service !== site.service) return;
          for (const parent of parentsOf(reply, site.segments))
            if (!Object.hasOwn(parent, site.name)) parent[site.name] = structuredClone(sample);
        },
      },
      services,
    });
  }
}

/** An enum narrowed or widened; null allowed in the 3.0 and 3.1 spellings. */
function valueChanges({ base, seen, add }: Context, site: ReplySite): void {
  const services = [site.service];
  const schema = schemaOf(base, site);
  const type = typeOf(schema);
  const where = `${site.service} ${site.path}`;
  if (Array.isArray(schema.enum) && schema.enum.length > 1) {
    const values = seen(site);
    // Narrowed by a value the replies carry (when one is not the first) and by one they do not.
    const carried = schema.enum.find((v: unknown, i: number) => i > 0 && values.includes(v));
    const unused = schema.enum.find((v: unknown) => !values.includes(v));
    for (const removed of new Set([carried, unused].filter((v) => v !== undefined))) {
      const kept = schema.enum.filter((v: unknown) => v !== removed);
      add('enum-narrowed', {
        change: `${where} enum without ${JSON.stringify(removed)}`,
        edit: (doc) => {
          schemaOf(doc, site).enum = kept;
        },
        witness: { reply: atEvery(site, (o) => o.value === removed && (o.parent[o.key] = kept[0])) },
        services,
      });
    }
    const extra = type === 'string' ? 'other' : 9999;
    add('enum-widened', {
      change: `${where} enum also ${JSON.stringify(extra)}`,
      edit: (doc) => {
        schemaOf(doc, site).enum = [...schema.enum, extra];
      },
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = extra)) },
      services,
    });
  }
  if (type !== undefined) {
    const nullWitness = { reply: atEvery(site, (o) => (o.parent[o.key] = null)) };
    add('nullable-3.0', {
      change: `${where} nullable: true (3.0)`,
      edit: (doc) => {
        doc.openapi = '3.0.3';
        schemaOf(doc, site).nullable = true;
      },
      witness: nullWitness,
      services,
    });
    add('nullable-3.1', {
      change: `${where} type [${type}, null] (3.1)`,
      edit: (doc) => {
        const s = schemaOf(doc, site);
        s.type = [type, 'null'];
        if (Array.isArray(s.enum)) s.enum = [...s.enum, null];
      },
      witness: nullWitness,
      services,
    });
  }
}

/** Bounds wider or narrower; a format or a pattern dropped. */
function boundChanges({ base, add }: Context, site: ReplySite): void {
  const services = [site.service];
  const schema = schemaOf(base, site);
  const where = `${site.service} ${site.path}`;
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    add('bound-min-wider', {
      change: `${where} no minLength`,
      edit: (doc) => delete schemaOf(doc, site).minLength,
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = '')) },
      services,
    });
  if (typeof schema.minimum === 'number')
    add('bound-min-wider', {
      change: `${where} minimum ${schema.minimum - 1}`,
      edit: (doc) => {
        schemaOf(doc, site).minimum = schema.minimum - 1;
      },
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = schema.minimum - 1)) },
      services,
    });
  if (typeof schema.maxLength === 'number') {
    add('bound-max-wider', {
      change: `${where} no maxLength`,
      edit: (doc) => delete schemaOf(doc, site).maxLength,
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = 'x'.repeat(schema.maxLength + 1))) },
      services,
    });
    add('bound-max-narrower', {
      change: `${where} maxLength 64`,
      edit: (doc) => {
        schemaOf(doc, site).maxLength = 64;
      },
      witness: { reply: atEvery(site, (o) => typeof o.value === 'string' && (o.parent[o.key] = o.value.slice(0, 64))) },
      services,
    });
  }
  if (typeof schema.maximum === 'number') {
    add('bound-max-wider', {
      change: `${where} maximum ${schema.maximum * 10}`,
      edit: (doc) => {
        schemaOf(doc, site).maximum = schema.maximum * 10;
      },
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = schema.maximum * 10)) },
      services,
    });
    add('bound-max-narrower', {
      change: `${where} maximum 1000000`,
      edit: (doc) => {
        schemaOf(doc, site).maximum = 1_000_000;
      },
      witness: {
        reply: atEvery(site, (o) => typeof o.value === 'number' && (o.parent[o.key] = Math.min(o.value, 1_000_000))),
      },
      services,
    });
  }
  if (typeof schema.format === 'string')
    add('format-dropped', {
      change: `${where} no format ${schema.format}`,
      edit: (doc) => delete schemaOf(doc, site).format,
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = 'not-a-date')) },
      services,
    });
  if (typeof schema.pattern === 'string')
    add('pattern-dropped', {
      change: `${where} no pattern`,
      edit: (doc) => delete schemaOf(doc, site).pattern,
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = 'a\u0000b')) },
      services,
    });
}

/** A schema rewritten as a union: wider (anyOf with a string) or the same (oneOf of itself). */
function compositionChanges({ base, add }: Context, site: ReplySite): void {
  const services = [site.service];
  const schema = schemaOf(base, site);
  const type = typeOf(schema);
  const where = `${site.service} ${site.path}`;
  if (type !== undefined && type !== 'string' && schema.enum === undefined)
    add('anyof-widened', {
      change: `${where} anyOf [${type}, string]`,
      edit: (doc) => {
        const parent = parentOf(doc, site);
        parent.properties[site.name] = { anyOf: [schema, { type: 'string' }] };
      },
      witness: { reply: atEvery(site, (o) => (o.parent[o.key] = 'x')) },
      services,
    });
  if (type !== undefined)
    add('oneof-anyof-rewrite', {
      change: `${where} as oneOf [its schema]`,
      edit: (doc) => {
        parentOf(doc, site).properties[site.name] = { oneOf: [schema] };
      },
      witness: {},
      services,
    });
}

/** Object schemas (the reply roots, every object of their arrays the replies reach): extras, allOf splits. */
function objectChanges({ base, add }: Context, sites: ReplySite[]): void {
  const objects = [
    ...SERVICES.map((service) => ({
      service,
      pointer: child('', 'components', 'schemas', REPLY_COMPONENTS[service]),
      segments: [] as string[],
    })),
    ...sites
      .filter(
        (s) =>
          typeOf(schemaOf(base, s)) === 'array' && typeOf(at(base, child(s.pointer, 'items')) as Json) === 'object',
      )
      .map((s) => ({ service: s.service, pointer: child(s.pointer, 'items'), segments: [...s.segments, '*'] })),
  ];
  for (const object of objects) {
    const services = [object.service];
    const where = `${object.service} ${object.segments.length === 0 ? '$' : `$.${object.segments.join('.').replace(/\.\*/g, '[*]')}`}`;
    const schema = at(base, object.pointer) as Json;
    const names = Object.keys(schema.properties);
    const each =
      (fn: (o: Json) => void): Witness['reply'] =>
      (reply, service) => {
        if (service !== object.service) return;
        for (const o of object.segments.length === 0 ? [{ value: reply }] : occurrences(reply, object.segments))
          if (typeof o.value === 'object' && o.value !== null) fn(o.value as Json);
      };
    add('extras-closed', {
      change: `${where} additionalProperties: false`,
      edit: (doc) => {
        (at(doc, object.pointer) as Json).additionalProperties = false;
      },
      witness: {
        reply: each((o) =>
          Object.keys(o)
            .filter((k) => !names.includes(k))
            .forEach((k) => delete o[k]),
        ),
      },
      services,
    });
    add('extras-typed', {
      change: `${where} additionalProperties: {type: string}`,
      edit: (doc) => {
        (at(doc, object.pointer) as Json).additionalProperties = { type: 'string' };
      },
      witness: { reply: each((o) => (o.x_vendor_note = 'sent as the document allows')) },
      services,
    });
    const half = Math.ceil(names.length / 2);
    const split = (closed: boolean) => (doc: Json) => {
      const parts = [names.slice(0, half), names.slice(half)].map((part) => ({
        type: 'object',
        properties: Object.fromEntries(part.map((n) => [n, schema.properties[n]])),
        required: (schema.required ?? []).filter((n: string) => part.includes(n)),
        ...(closed ? { additionalProperties: false } : {}),
      }));
      const target = at(doc, object.pointer) as Json;
      for (const key of Object.keys(target)) if (!['title', 'description'].includes(key)) delete target[key];
      target.allOf = parts;
    };
    add('allof-split', { change: `${where} split into allOf of two parts`, edit: split(false), witness: {}, services });
    add('allof-closed-parts', {
      change: `${where} split into allOf of two closed parts`,
      edit: split(true),
      witness: {},
      services,
    });
  }
}

/** Changes of the document as a whole: the reply union, media types, the path, the method. */
function documentChanges({ add }: Context): void {
  add('oneof-anyof-rewrite', {
    change: 'SellerReply anyOf → oneOf',
    edit: (doc) => {
      const reply = doc.components.schemas.SellerReply;
      reply.oneOf = reply.anyOf;
      delete reply.anyOf;
    },
    witness: {},
    services: SERVICES,
  });
  const replyContent = (doc: Json) => doc.paths['/'].post.responses['200'].content;
  const requestContent = (doc: Json) => doc.paths['/'].post.requestBody.content;
  const retype = (content: (doc: Json) => Json, type: string) => (doc: Json) => {
    const c = content(doc);
    c[type] = c['application/json'];
    delete c['application/json'];
  };
  for (const type of [
    'application/vnd.seller+json',
    'application/json; charset=utf-8',
    'application/xml',
    'text/plain',
  ])
    add('reply-media-type', {
      change: `reply as ${type}`,
      edit: retype(replyContent, type),
      witness: { replyType: type },
      services: SERVICES,
    });
  for (const type of ['application/vnd.seller+json', 'application/xml', 'text/plain', '*/*', 'application/*'])
    add('request-media-type', {
      change: `request body as ${type}`,
      edit: retype(requestContent, type),
      witness: {},
      services: SERVICES,
    });
  for (const path of ['/orders', '/seller', '/v1/'])
    add('wrong-path', {
      change: `POST / moved to ${path}`,
      edit: (doc) => {
        doc.paths[path] = doc.paths['/'];
        delete doc.paths['/'];
      },
      witness: {},
      services: SERVICES,
    });
  for (const method of ['put', 'patch', 'get'])
    add('wrong-method', {
      change: `POST / as ${method.toUpperCase()}`,
      edit: (doc) => {
        doc.paths['/'] = { [method]: doc.paths['/'].post };
      },
      witness: {},
      services: SERVICES,
    });
}

/** The request schemas: a property dropped, required, its enum narrowed, retyped. */
function requestChanges({ base, add }: Context): void {
  for (const site of replySites(base, REQUEST_COMPONENTS)) {
    const schema = at(base, site.pointer) as Json;
    const where = `${site.service} request ${site.path}`;
    const parentOf = (doc: Json) => at(doc, site.parent) as Json;
    const services = [site.service];
    if (site.name !== 'service')
      add('request-field-dropped', {
        change: `${where} dropped`,
        edit: (doc) => {
          const parent = parentOf(doc);
          delete parent.properties[site.name];
          if (Array.isArray(parent.required)) parent.required = parent.required.filter((n: string) => n !== site.name);
        },
        witness: {},
        services,
      });
    if (!site.required)
      add('request-required-added', {
        change: `${where} required`,
        edit: (doc) => {
          const parent = parentOf(doc);
          parent.required = [...(parent.required ?? []), site.name];
        },
        witness: {},
        services,
      });
    if (Array.isArray(schema.enum) && schema.enum.length > 1)
      add('request-enum-narrowed', {
        change: `${where} enum without ${JSON.stringify(schema.enum[0])}`,
        edit: (doc) => {
          (at(doc, site.pointer) as Json).enum = schema.enum.slice(1);
        },
        witness: {},
        services,
      });
    const other = typeOf(schema) === undefined ? undefined : retyped(typeOf(schema)!);
    if (other !== undefined && site.name !== 'service' && schema.enum === undefined)
      add('request-retyped', {
        change: `${where} ${typeOf(schema)} → ${other.to}`,
        edit: (doc) => {
          (at(doc, site.pointer) as Json).type = other.to;
        },
        witness: {},
        services,
      });
  }
}

/** Every candidate change, by kind, at the sites the mock seller's replies reach (`seen`). */
function candidates(base: Json, seen: (site: ReplySite) => unknown[]): Map<Kind, Candidate[]> {
  const out = new Map<Kind, Candidate[]>(KINDS.map((k) => [k, []]));
  const context: Context = { base, seen, add: (kind, c) => out.get(kind)!.push(c) };
  const sites = replySites(base).filter((s) => seen(s).length > 0);
  for (const site of sites)
    for (const changes of [fieldChanges, valueChanges, boundChanges, compositionChanges]) changes(context, site);
  objectChanges(context, sites);
  documentChanges(context);
  requestChanges(context);
  return out;
}

/** Up to `perKind` of `list`, spread evenly over it (all when it has fewer). */
function spread<T>(list: T[], perKind: number): T[] {
  if (list.length <= perKind) return list;
  return Array.from({ length: perKind }, (_, i) => list[Math.floor((i * list.length) / perKind)]);
}

/**
 * The derived documents: up to `perKind` of each kind, from the contract's document `base`;
 * `seen(site)` is the values the mock seller's replies carry at a reply site (a site they never
 * reach gets no change: no seller answer could tell its verdict).
 */
export function deriveDocuments(base: Json, seen: (site: ReplySite) => unknown[], perKind: number): Derived[] {
  const all = candidates(base, seen);
  const derived: Derived[] = [];
  for (const kind of KINDS)
    for (const c of spread(all.get(kind)!, perKind)) {
      const document = clone(base);
      c.edit(document);
      derived.push({
        index: derived.length,
        kind,
        change: c.change,
        document,
        witness: c.witness,
        services: c.services,
      });
    }
  return derived;
}
