// A seller that answers exactly as one vendor document says, built on the mock seller: in
// front of it, the document's own request validation (path, method, content type, body: a
// request the document refuses gets 404, 405, 415 or 400, as a framework generated from it
// answers), the mock's reply changed by the document's witness, then the document's own reply
// validation (a reply its document refuses is a 500, as express-openapi-validator or Prism's
// validating proxy answer). Everything else (provider states, /__admin) goes to the mock.
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { listen } from '../../shared/http/listen';
import { schemaChecker, vendorDocumentOf, type VendorDocument } from '../../verification/openapi-check/vendor-document';
import type { Derived } from './derive-documents';
import type { Service } from './reply-sites';

type Json = Record<string, any>;

export interface DocumentSeller {
  /** Looks like a mock seller to the kit's head verifier: `${url}/seller`, `${url}/__admin/provider-state`. */
  running: RunningMockSeller;
  /** The document the seller answers by from now on; undefined: the mock itself. */
  use(derived: Derived | undefined): void;
  /** Replies the seller's own document refused (answered 500) since the last use(). */
  refusedReplies(): number;
  close(): Promise<void>;
}

const SELLER_PREFIX = '/seller';
const mediaType = (key: string) => key.split(';')[0].trim().toLowerCase();

function takes(declared: string, sent: string): boolean {
  const [d, s] = [mediaType(declared), mediaType(sent)];
  return d === s || d === '*/*' || (d.endsWith('/*') && s.startsWith(d.slice(0, -1)));
}

interface Model {
  derived: Derived;
  vendor: VendorDocument;
  check: ReturnType<typeof schemaChecker>;
}

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

export async function startDocumentSeller(): Promise<DocumentSeller> {
  const mock = await startMockSeller();
  let model: Model | undefined;
  let refused = 0;

  async function answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (model === undefined || !url.pathname.startsWith(SELLER_PREFIX)) return mock.seller.app.fetch(request);
    const { vendor, check, derived } = model;
    const path = url.pathname.slice(SELLER_PREFIX.length) || '/';
    const item = (vendor.document.paths as Json)[path];
    if (item === undefined) return json(404, { message: `no ${path} in the seller's document` });
    const method = request.method.toLowerCase();
    const operation = item[method];
    if (operation === undefined) return json(405, { message: `${request.method} ${path} is not in the document` });
    const pointer = `/paths/${escape(path)}/${method}`;
    const text = await request.text();
    const sent = request.headers.get('content-type') ?? '';
    const content = operation.requestBody?.content ?? {};
    const key = Object.keys(content).find((k) => takes(k, sent));
    if (key === undefined) return json(415, { message: `${sent} is not a request type of the document` });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(400, { message: 'not JSON' });
    }
    if (content[key].schema !== undefined) {
      const errors = check(`${pointer}/requestBody/content/${escape(key)}/schema`)(body);
      if (errors.length > 0) return json(400, { message: 'the request breaks the document', errors });
    }
    const forwarded = new Request(new URL(SELLER_PREFIX, url), {
      method: 'POST',
      headers: request.headers,
      body: text,
    });
    const replied = await mock.seller.app.fetch(forwarded);
    if (replied.status !== 200) return replied;
    const reply = (await replied.json()) as unknown;
    const service = (body as Json).service as Service;
    derived.witness.reply?.(reply, service);
    const replies = operation.responses?.['200']?.content ?? {};
    const replyKey = Object.keys(replies).find((k) => mediaType(k) === 'application/json') ?? Object.keys(replies)[0];
    const type = derived.witness.replyType ?? replyKey ?? 'application/json';
    if (replyKey !== undefined && replies[replyKey].schema !== undefined) {
      const errors = check(`${pointer}/responses/200/content/${escape(replyKey)}/schema`)(reply);
      if (errors.length > 0) {
        refused++;
        return json(500, { message: 'the reply breaks the seller’s own document', errors: errors.slice(0, 5) });
      }
    }
    return json(200, reply, type);
  }

  const listening = await listen(answer);
  return {
    running: { url: listening.url, port: listening.port, seller: mock.seller, close: () => listening.close() },
    use(derived) {
      refused = 0;
      if (derived === undefined) {
        model = undefined;
        return;
      }
      const vendor = vendorDocumentOf(`derived-${derived.index}.json`, derived.document);
      model = { derived, vendor, check: schemaChecker(vendor) };
    },
    refusedReplies: () => refused,
    async close() {
      await listening.close();
      await mock.close();
    },
  };
}
