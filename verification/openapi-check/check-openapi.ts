// `check-openapi`: a vendor's own OpenAPI document read against the pact, without running
// anything. For each interaction: the vendor's operation accepts the contract's request, its
// 200 reply schema accepts the contract's example reply, and it allows no reply the contract's
// reply schema refuses (required properties, types, enums, null, bounds, formats, patterns,
// other properties). Pure but for reading the contract's own files.
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { PACT_FILE } from '../../contracts/pact/pact-names';
import { packagePath } from '../../shared/package-root';
import { RULES, type RuleName } from '../../contracts/reply-rules/violation';
import { follow, isObject, pointerChild, type JsonObject, type Located } from '../compat/openapi-refs';
import { branchesOf } from '../compat/openapi-schema-shape';
import { schemaGaps } from './reply-schema-walk';
import { undeclaredProperties } from './undeclared-properties';
import { schemaChecker, type SchemaCheck, type VendorDocument } from './vendor-document';

/**
 * Whether each reply rule compares the reply with the request (no document can state it: proven
 * only by `verify`) or looks at the reply alone. Exhaustive, so a new rule must be placed here.
 */
const RULE_REACH = {
  'item.id-echo': 'with-request',
  'item.unknown-id': 'with-request',
  'item.requested-part-missing': 'with-request',
  'item.requested-part-duplicate': 'with-request',
  'item.requested-part-mismatch': 'with-request',
  'item.original-mismatch': 'with-request',
  'item.status-code': 'reply-alone',
  'alternate.original-part': 'with-request',
  'alternate.original-mfr': 'with-request',
  'location.not-forwarded': 'with-request',
  'location.duplicate': 'reply-alone',
  'location.type-code': 'reply-alone',
  'location.pack-code': 'reply-alone',
  'reply.status-code': 'reply-alone',
  'order.id-echo': 'with-request',
  'order.unknown-id': 'with-request',
  'order.duplicate-id': 'with-request',
  'order.item-status': 'reply-alone',
  'invoice.date-range': 'with-request',
  'invoice.account': 'with-request',
  'invoice.number': 'with-request',
  'invoice.po-number': 'with-request',
  'invoice.location': 'with-request',
  'invoice.part-number': 'with-request',
  'statement.date-range': 'with-request',
  'statement.account': 'with-request',
  'statement.location': 'with-request',
} as const satisfies Record<RuleName, 'with-request' | 'reply-alone'>;

/** The reply rules that compare the reply with the request: no document can state them. */
export const RULES_PROVEN_ONLY_BY_VERIFY = (Object.keys(RULE_REACH) as RuleName[]).filter(
  (rule) => RULE_REACH[rule] === 'with-request',
);

export interface OpenApiFinding {
  interaction: string;
  /**
   * request: the vendor refuses the contract's request; reply: the contract's example reply;
   * reply-schema: the vendor's reply schema allows what the contract's refuses.
   */
  kind: 'request' | 'reply' | 'reply-schema';
  /** A JSON path into the request or reply body (`$` for the body itself). */
  path: string;
  vendor: string;
  contract: string;
}

export interface OpenApiCheckReport {
  document: string;
  operation: string;
  interactions: number;
  /** The pact's interactions, in its order. */
  interactionNames: string[];
  findings: OpenApiFinding[];
  provenOnlyByVerify: { rule: string; guards: string }[];
}

interface PactInteraction {
  description: string;
  request: { body?: { content?: unknown } };
  response: { body?: { content?: unknown }; headers?: Record<string, string[] | string> };
}

/** The media type the pact expects a reply to declare (Pact compares it), or undefined. */
function expectedReplyType(interaction: PactInteraction): string | undefined {
  const header = Object.entries(interaction.response.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'content-type',
  );
  const value = Array.isArray(header?.[1]) ? header[1][0] : header?.[1];
  return value === undefined ? undefined : mediaType(value);
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const SELLER_API = packagePath('contracts', 'openapi', 'seller.openapi.json');

/** The contract's reply component for each `service`. */
const REPLY_OF_SERVICE: Record<string, string> = {
  item_inquiry: 'ItemInquirySellerReply',
  place_order: 'PlaceOrderSellerReply',
  invoice: 'InvoiceSellerReply',
  statement: 'StatementSellerReply',
};

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** A JSON pointer into a value (Ajv's instancePath) as a JSON path: /items/0/id → $.items[0].id. */
export const jsonPath = (pointer: string): string =>
  '$' +
  pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^\d+$/.test(token) ? `[${token}]` : `.${token}`))
    .join('');

/** Ajv's errors, one per path: the vendor refuses what the contract sends. */
function refusals(
  errors: ErrorObject[],
  value: unknown,
  what: string,
): { path: string; vendor: string; contract: string }[] {
  const byPath = new Map<string, string[]>();
  for (const error of errors) {
    // An anyOf/oneOf says only that no branch fitted; its branches' own errors say why.
    if ((error.keyword === 'anyOf' || error.keyword === 'oneOf') && errors.length > 1) continue;
    const at =
      error.keyword === 'required'
        ? `${error.instancePath}/${String((error.params as { missingProperty: string }).missingProperty)}`
        : error.instancePath;
    const list = byPath.get(at) ?? [];
    if (!list.includes(error.message ?? error.keyword)) list.push(error.message ?? error.keyword);
    byPath.set(at, list);
  }
  return [...byPath].map(([at, messages]) => ({
    path: jsonPath(at),
    vendor: `refuses it (${messages.join('; ')})`,
    contract: `${what} ${shown(valueAt(value, at))}`,
  }));
}

function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of pointer.split('/').slice(1))
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
  return node;
}

const shown = (value: unknown): string => {
  if (value === undefined) return 'nothing here';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const mediaType = (key: string) => key.split(';')[0].trim().toLowerCase();
/** A request body's media types that take the gateway's application/json. */
const takesJson = (key: string) => ['application/json', 'application/*', '*/*'].includes(mediaType(key));
/** A reply's media types the kit reads as JSON: application/json or a +json type (application/vnd.x+json). */
const isJson = (key: string) =>
  mediaType(key) === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType(key));

/** The media types of a request body or response object (either may be a $ref). */
function mediaTypes(document: unknown, located: Located): string[] {
  const target = follow(document, located);
  return isObject(target.node) && isObject(target.node.content) ? Object.keys(target.node.content) : [];
}

/** The JSON schema of a request body or response object (either may be a $ref), with its pointer. */
function mediaSchema(document: unknown, located: Located, matches: (key: string) => boolean): Located | undefined {
  const target = follow(document, located);
  if (!isObject(target.node)) return undefined;
  const content = target.node.content;
  if (!isObject(content)) return undefined;
  const keys = Object.keys(content).filter(matches);
  // application/json before a vendor type when a document lists both.
  const key = keys.find((k) => mediaType(k) === 'application/json') ?? keys[0];
  const media = key === undefined ? undefined : content[key];
  if (!isObject(media)) return undefined;
  // A media type with no schema takes any body.
  if (media.schema === undefined) return { node: {}, at: pointerChild(target.at, 'content', key!) };
  return { node: media.schema, at: pointerChild(target.at, 'content', key!, 'schema') };
}

/** What a document has at a path with no POST operation. */
function noPost(item: unknown, path: string): string {
  const methods = isObject(item) ? Object.keys(item).filter((k) => HTTP_METHODS.has(k)) : [];
  return methods.length === 0
    ? `no operation at ${path}`
    : `no POST at ${path} (only ${methods.map((m) => m.toUpperCase()).join(', ')})`;
}

const typesText = (types: string[]) => (types.length === 0 ? 'no media type' : types.join(', '));

/** A vendor reply schema that is a union: the branches that accept the example reply (every one if none does). */
function replyBranches(document: unknown, located: Located, accepts: (pointer: string) => boolean): Located[] {
  const schema = follow(document, located);
  const branches = isObject(schema.node) ? branchesOf(schema) : undefined;
  if (branches === undefined) return [located];
  const accepting = branches.filter((branch) => accepts(branch.at));
  // None does: every branch is a candidate, and the closest to the contract's is taken.
  return accepting.length > 0 ? accepting : branches;
}

/**
 * Why a schema refuses a value: its own errors, or, for a union, the errors of the branch that
 * comes closest (fewest errors), so a request refused by every branch is told by the one meant for it.
 */
function closestErrors(
  document: unknown,
  located: Located,
  value: unknown,
  checker: (pointer: string) => SchemaCheck,
): ErrorObject[] {
  const errors = checker(located.at)(value);
  if (errors.length === 0) return errors;
  const target = follow(document, located);
  const branches = isObject(target.node) ? branchesOf(target) : undefined;
  if (branches === undefined) return errors;
  return branches
    .map((branch) => closestErrors(document, branch, value, checker))
    .reduce((best, next) => (next.length < best.length ? next : best));
}

type Add = (kind: OpenApiFinding['kind'], found: { path: string; vendor: string; contract: string }) => void;

/** One interaction's reply findings: media type, example reply, the vendor's reply schema against the contract's. */
function replyFindings(
  document: JsonObject,
  contract: JsonObject,
  vendorReply: { schema: Located; keys: string[] },
  checker: (pointer: string) => SchemaCheck,
  interaction: PactInteraction,
  add: Add,
): void {
  const request = interaction.request.body?.content;
  const reply = interaction.response.body?.content;
  const expected = expectedReplyType(interaction);
  const replyType = vendorReply.keys.find((k) => k === 'application/json') ?? vendorReply.keys[0];
  if (expected !== undefined && replyType !== expected)
    add('reply', {
      path: '$',
      vendor: `replies as ${vendorReply.keys.join(', ')}`,
      contract: `the pact expects Content-Type ${expected}`,
    });
  const component = isObject(request) ? REPLY_OF_SERVICE[String(request.service)] : undefined;
  const whole = checker(vendorReply.schema.at)(reply);
  if (component === undefined) {
    for (const refusal of refusals(closestErrors(document, vendorReply.schema, reply, checker), reply, 'requires'))
      add('reply', refusal);
    return;
  }
  const contractSide = { document: contract, at: { node: { $ref: `#/components/schemas/${component}` }, at: '' } };
  // Of the branches that could answer this request, the closest to the contract's reply is the vendor's reply to it.
  const candidates = replyBranches(document, vendorReply.schema, (at) => checker(at)(reply).length === 0).map(
    (branch) => ({ branch, gaps: schemaGaps({ document, at: branch }, contractSide) }),
  );
  const closest = candidates.reduce((best, next) => (next.gaps.length < best.gaps.length ? next : best));
  if (whole.length > 0) {
    const own = closestErrors(document, closest.branch, reply, checker);
    // A property the vendor requires that an example reply lacks is one its seller sends on top:
    // Pact and the contract allow other properties (the walk below compares its schema).
    const errors = own.filter((e) => e.keyword !== 'required');
    if (own.length === 0)
      add('reply', {
        path: '$',
        vendor: `refuses it (${whole.find((e) => e.keyword === 'oneOf')?.message ?? whole[0].message ?? 'its union'})`,
        contract: 'requires the example reply',
      });
    for (const refusal of refusals(errors, reply, 'requires')) add('reply', refusal);
  }
  for (const gap of closest.gaps) add('reply-schema', gap);
  for (const at of undeclaredProperties(document, closest.branch, reply))
    add('reply', { path: at, vendor: 'not declared (taken as not sent)', contract: "the pact's reply has it" });
}

/** Every finding of the vendor's document against the pact's interactions at `path`. */
export function checkOpenApi(
  vendor: VendorDocument,
  path: string,
  pactFile: string = PACT_FILE,
  contractFile: string = SELLER_API,
): OpenApiCheckReport {
  const pact = readJson(pactFile) as { interactions: PactInteraction[] };
  const contract = readJson(contractFile) as JsonObject;
  const document = vendor.document;
  const operationAt = pointerChild('', 'paths', path, 'post');
  const item = (document.paths as JsonObject)[path];
  const operation = isObject(item) && isObject(item.post) ? item.post : undefined;
  const checker = schemaChecker(vendor);
  const requestBody =
    operation?.requestBody === undefined
      ? undefined
      : { node: operation.requestBody, at: pointerChild(operationAt, 'requestBody') };
  const requestSchema = requestBody === undefined ? undefined : mediaSchema(document, requestBody, takesJson);
  const responses = isObject(operation?.responses) ? operation.responses : {};
  const okKey = ['200', '2XX'].find((code) => responses[code] !== undefined);
  const okReply =
    okKey === undefined ? undefined : { node: responses[okKey], at: pointerChild(operationAt, 'responses', okKey) };
  const replySchema = okReply === undefined ? undefined : mediaSchema(document, okReply, isJson);
  const replyKeys = okReply === undefined ? [] : mediaTypes(document, okReply).filter(isJson).map(mediaType);
  const findings: OpenApiFinding[] = [];
  for (const interaction of pact.interactions) {
    const add: Add = (kind, found) => findings.push({ interaction: interaction.description, kind, ...found });
    const request = interaction.request.body?.content;
    if (operation === undefined) {
      add('request', { path: '$', vendor: noPost(item, path), contract: `POST ${path}` });
      continue;
    }
    if (requestSchema === undefined)
      add('request', {
        path: '$',
        vendor:
          requestBody === undefined
            ? 'no request body'
            : `request body as ${typesText(mediaTypes(document, requestBody))}`,
        contract: 'sends application/json',
      });
    else
      for (const refusal of refusals(closestErrors(document, requestSchema, request, checker), request, 'sends'))
        add('request', refusal);
    if (replySchema === undefined) {
      add('reply', {
        path: '$',
        vendor:
          okReply === undefined
            ? `no 200 reply (replies: ${Object.keys(responses).join(', ') || 'none'})`
            : `200 reply as ${typesText(mediaTypes(document, okReply))}`,
        contract: 'a 200 application/json reply',
      });
      continue;
    }
    replyFindings(document, contract, { schema: replySchema, keys: replyKeys }, checker, interaction, add);
  }
  return {
    document: vendor.file,
    operation: `POST ${path}`,
    interactions: pact.interactions.length,
    interactionNames: pact.interactions.map((i) => i.description),
    findings,
    provenOnlyByVerify: RULES_PROVEN_ONLY_BY_VERIFY.map((rule) => ({ rule, guards: RULES[rule] })),
  };
}

/** The interactions with at least one finding. */
export const interactionsWithFindings = (report: OpenApiCheckReport): number =>
  new Set(report.findings.map((f) => f.interaction)).size;

export const openApiCheckExitCode = (report: OpenApiCheckReport): number => (report.findings.length > 0 ? 1 : 0);

/** The report as text: one line per finding, the note, then the summary line. */
export function openApiCheckAsText(report: OpenApiCheckReport): string {
  const lines = report.findings.map(
    (f) => `${f.interaction}: ${f.kind} ${f.path}: vendor: ${f.vendor}, contract: ${f.contract}`,
  );
  if (lines.length > 0) lines.push('');
  lines.push(
    'Note: no document can state the reply rules that compare the reply with the request; proven only by `verify`:',
    ...report.provenOnlyByVerify.map(({ rule, guards }) => `  ${rule}: ${guards}`),
    '',
    report.findings.length > 0
      ? `FAILED: ${report.findings.length} finding${report.findings.length === 1 ? '' : 's'} in ${interactionsWithFindings(report)} of ${report.interactions} interactions`
      : `PASSED: your document accepts every request of the pact, allows its example replies, and requires every reply field the contract requires, none wider in type, enum, null, bounds, format or other properties (${report.interactions} interactions; patterns compared on sample strings; properties your document does not declare taken as not sent)`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report as JSON. */
export function openApiCheckAsJson(report: OpenApiCheckReport): string {
  const summary = {
    passed: report.findings.length === 0,
    findings: report.findings.length,
    interactionsWithFindings: interactionsWithFindings(report),
    interactions: report.interactions,
  };
  return `${JSON.stringify({ document: report.document, operation: report.operation, summary, findings: report.findings, provenOnlyByVerify: report.provenOnlyByVerify }, null, 2)}\n`;
}
