import { readFileSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import { packagePath } from '../shared/package-root';
import { UnknownResourceError } from './errors';
import { renderInvoice, renderStatement } from './documents';
import type { SellerLiveState } from './seller-live-state';

// GET /documents/...: the downloadable copies that link_url points to; GET /openapi.json: the
// seller API document the toolkit ships, its server this mock seller.

/** The committed document, as the toolkit package carries it (contracts/openapi/, npm run schemas). */
export const SELLER_API_DOCUMENT_PATH = packagePath('contracts', 'openapi', 'seller.openapi.json');

interface SellerApiDocument {
  servers: { variables: { seller_url: { default: string } } }[];
}

/**
 * GET /openapi.json: the seller API document with `seller_url` defaulting to this mock seller's
 * endpoint (its public URL when it has one, else the address asked), so a generated client or
 * a validation proxy reaches it as it stands. Read once, on the first request.
 */
export function sellerApiDocumentRoute(publicUrl?: string): (c: Context) => Response {
  let text: string | undefined;
  return (c) => {
    text ??= readFileSync(SELLER_API_DOCUMENT_PATH, 'utf8');
    const document = JSON.parse(text) as SellerApiDocument;
    document.servers[0].variables.seller_url.default = `${publicUrl ?? new URL(c.req.url).origin}/seller`;
    return c.json(document);
  };
}

const stripTxt = (file: string) => (file.endsWith('.txt') ? file.slice(0, -4) : file);

export function documentRoutes(state: SellerLiveState): Hono {
  const docs = new Hono();
  const send = (text: string | undefined, what: string, filename: string) => {
    if (text === undefined) throw new UnknownResourceError(`no ${what}`);
    return new Response(text, {
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'content-disposition': `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
      },
    });
  };
  docs.get('/invoices/:member/:account/:file', (c) => {
    const { member, account, file } = c.req.param();
    const number = stripTxt(file);
    return send(
      renderInvoice(state.data, member, account, number),
      `invoice ${number} for account ${account} at ${member}`,
      `invoice-${number}.txt`,
    );
  });
  docs.get('/statements/:member/:account/:file', (c) => {
    const { member, account, file } = c.req.param();
    const date = stripTxt(file);
    return send(
      renderStatement(state.data, member, account, date),
      `statement of ${date} for account ${account} at ${member}`,
      `statement-${account}-${date}.txt`,
    );
  });
  return docs;
}
