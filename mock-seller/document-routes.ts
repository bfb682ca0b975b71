import { Hono } from 'hono';
import { UnknownResourceError } from './errors';
import { renderInvoice, renderStatement } from './documents';
import type { SellerLiveState } from './seller-live-state';

// GET /documents/...: the downloadable copies that link_url points to.

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
