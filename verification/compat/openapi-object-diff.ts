// An object schema's fields in one direction: a field removed, added, made optional or newly
// required, each field's own schema (through diffField), and additionalProperties. A reply's
// unknown fields are safe (buyers are tolerant readers); a request's are refused once closed.
import type { Direction, OpenApiPolicy } from './openapi-compat-policy';
import { report } from './openapi-finding';
import { isObject, type JsonObject, type Located } from './openapi-refs';
import { at, placeOf, type SchemaComparison } from './openapi-schema-comparison';
import { canonical, propertyAt } from './openapi-schema-shape';

type DiffField = (base: Located, head: Located) => void;

export function diffObject(
  c: SchemaComparison,
  b: Located,
  h: Located,
  direction: Direction,
  diffField: DiffField,
): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  const bp = isObject(bs.properties) ? bs.properties : {};
  const hp = isObject(hs.properties) ? hs.properties : {};
  const br = new Set(Array.isArray(bs.required) ? (bs.required as string[]) : []);
  const hr = new Set(Array.isArray(hs.required) ? (hs.required as string[]) : []);
  const names = [...new Set([...Object.keys(bp), ...br, ...Object.keys(hp), ...hr])];
  for (const name of names) {
    const inBase = name in bp || br.has(name);
    const inHead = name in hp || hr.has(name);
    const bAt = name in bp ? propertyAt(bs, b.at, name) : at(b, 'required');
    const hAt = name in hp ? propertyAt(hs, h.at, name) : at(h, 'required');
    if (!inHead) {
      report(c, {
        policy: direction === 'request' ? 'request-field-removed' : 'reply-field-removed',
        pointer: bAt,
        base: name,
        message:
          direction === 'request'
            ? `request field \`${name}\` removed: a buyer that sends it is refused or ignored`
            : `reply field \`${name}\` removed: a buyer that reads it finds nothing`,
      });
      continue;
    }
    if (!inBase) {
      const required = hr.has(name);
      const policy: OpenApiPolicy =
        direction === 'request'
          ? required
            ? 'request-field-newly-required'
            : 'request-field-added'
          : 'reply-field-added';
      report(c, {
        policy,
        pointer: hAt,
        head: name,
        message: `${direction} field \`${name}\` added${required ? ' (required)' : ' (optional)'}`,
      });
      continue;
    }
    if (name in bp || name in hp) diffField({ node: bp[name] ?? {}, at: bAt }, { node: hp[name] ?? {}, at: hAt });
    if (br.has(name) && !hr.has(name)) {
      report(c, {
        policy: direction === 'request' ? 'request-field-made-optional' : 'reply-field-made-optional',
        pointer: hAt,
        head: name,
        message:
          direction === 'request'
            ? `request field \`${name}\` no longer required`
            : `reply field \`${name}\` no longer required: a buyer that reads it may find nothing`,
      });
    }
    if (!br.has(name) && hr.has(name)) {
      report(c, {
        policy: direction === 'request' ? 'request-field-newly-required' : 'reply-field-newly-required',
        pointer: hAt,
        head: name,
        message: `${direction} field \`${name}\` now required`,
      });
    }
  }
  diffAdditional(c, b, h, direction, diffField);
}

function diffAdditional(c: SchemaComparison, b: Located, h: Located, direction: Direction, diffField: DiffField): void {
  const bv = (b.node as JsonObject).additionalProperties;
  const hv = (h.node as JsonObject).additionalProperties;
  const open = (v: unknown) => v === undefined || v === true;
  if (isObject(bv) && isObject(hv))
    return diffField({ node: bv, at: at(b, 'additionalProperties') }, { node: hv, at: at(h, 'additionalProperties') });
  if (open(bv) && open(hv)) return;
  if (canonical(c.base, bv) === canonical(c.head, hv)) return;
  const closed = hv === false || (open(bv) && isObject(hv));
  const policy: OpenApiPolicy =
    direction === 'reply'
      ? 'reply-additional-properties-changed'
      : closed
        ? 'request-additional-properties-closed'
        : 'request-additional-properties-opened';
  report(c, {
    policy,
    pointer: placeOf(b, h, 'additionalProperties'),
    base: bv,
    head: hv,
    message: `additionalProperties ${JSON.stringify(bv ?? true)} → ${JSON.stringify(hv ?? true)}`,
  });
}
