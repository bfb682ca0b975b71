import { Hono } from 'hono';
import { listen } from '../../shared/http/listen';

// A stand-in Pact Broker on loopback for testing the publishing scripts (no broker can run
// on these machines): it records what the `pact` CLI sends and answers the three calls the
// CLI makes — the HAL index, POST /contracts/publish, GET /matrix — as a broker would.

export interface RecordedCall {
  method: string;
  path: string;
  query: string;
  authorization?: string;
  body?: unknown;
}

export interface RecordingBrokerOptions {
  /** can-i-deploy's answer. */
  deployable?: boolean;
}

export function createRecordingBroker(options: RecordingBrokerOptions = {}): { app: Hono; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const app = new Hono();

  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    const text = c.req.method === 'GET' ? '' : await c.req.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    calls.push({
      method: c.req.method,
      path: url.pathname,
      query: decodeURIComponent(url.search),
      authorization: c.req.header('authorization'),
      body,
    });
    await next();
  });

  const hal = (data: unknown, status = 200) =>
    new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/hal+json' } });

  app.get('/', (c) => {
    const base = new URL(c.req.url).origin;
    return hal({
      _links: {
        self: { href: base },
        'pb:publish-contracts': { href: `${base}/contracts/publish`, title: 'Publish contracts' },
      },
    });
  });

  app.post('/contracts/publish', (c) => {
    const base = new URL(c.req.url).origin;
    const body = calls[calls.length - 1].body as {
      pacticipantName: string;
      pacticipantVersionNumber: string;
      contracts: { consumerName: string; providerName: string }[];
    };
    const version = `${base}/pacticipants/${body.pacticipantName}/versions/${body.pacticipantVersionNumber}`;
    return hal({
      notices: body.contracts.map((contract) => ({
        type: 'success',
        text: `Pact published for ${contract.consumerName} version ${body.pacticipantVersionNumber} and provider ${contract.providerName}.`,
      })),
      _embedded: {
        pacticipant: {
          name: body.pacticipantName,
          _links: { self: { href: `${base}/pacticipants/${body.pacticipantName}` } },
        },
        version: { number: body.pacticipantVersionNumber, _links: { self: { href: version } } },
      },
      _links: {
        'pb:pacticipant': { href: `${base}/pacticipants/${body.pacticipantName}` },
        'pb:pacticipant-version': { href: version },
        'pb:contracts': body.contracts.map((contract) => ({
          href: `${base}/pacts/provider/${contract.providerName}/consumer/${contract.consumerName}/version/${body.pacticipantVersionNumber}`,
        })),
      },
    });
  });

  app.get('/matrix', () => {
    const deployable = options.deployable ?? true;
    return hal({
      summary: {
        deployable,
        reason: deployable
          ? 'All required verification results are published and successful'
          : 'The verification for the pact between federated-gateway and seller-system failed',
        success: deployable ? 1 : 0,
        failed: deployable ? 0 : 1,
        unknown: 0,
      },
      matrix: [],
      notices: [],
    });
  });

  app.all('*', (c) =>
    hal({ error: `the recording broker has no ${c.req.method} ${new URL(c.req.url).pathname}` }, 404),
  );
  return { app, calls };
}

export async function startRecordingBroker(
  options: RecordingBrokerOptions = {},
): Promise<{ url: string; calls: RecordedCall[]; close(): Promise<void> }> {
  const { app, calls } = createRecordingBroker(options);
  const { url, close } = await listen(app.fetch);
  return { url, calls, close };
}
