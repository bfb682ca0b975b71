import { Hono, type Context } from 'hono';
import type { Store } from '../store/store';
import type { Clock } from '../clock';
import { MAX_ID_LENGTH, PLAIN_TEXT_PATTERN } from '../../contracts/schemas/common';
import { NotFoundError } from '../errors';
import { InternalRequestRejected } from './internal-api-errors';
import { conformanceReport } from '../conformance/conformance-figures';
import { memberKnown, productionReplayFile } from '../conformance/production-replay-file';
import { conformancePage, conformancePageHeaders } from '../conformance/conformance-page';
import { inspectorAccess } from '../../inspector/inspector-access';
import { loginPage, loginPageHeaders } from '../../inspector/login-page';

// Production conformance on the internal port:
//   GET /internal/conformance                    every member's figures (JSON)
//   GET /internal/conformance/:member            one member's
//   GET /internal/conformance/:member/replay     the member's replay file (a download)
//   GET /inspector/conformance                   the page, beside the inspector (its session or the credential)
//   GET /inspector/conformance/:member/replay    the replay file, for the page's links
// Everything is read from the store: the counts of every gateway instance, added up.

const PLAIN_TEXT = new RegExp(PLAIN_TEXT_PATTERN, 'u');

function memberParam(c: Context): string {
  const member = c.req.param('member') ?? '';
  if (member === '' || !PLAIN_TEXT.test(member) || [...member].length > MAX_ID_LENGTH)
    throw new InternalRequestRejected(
      `member must be a member id (1 to ${MAX_ID_LENGTH} characters, no NUL or unpaired surrogate)`,
      [{ path: 'path:member', message: 'a member id' }],
    );
  return member;
}

export interface ConformanceRoutesDeps {
  store: Store;
  clock: Clock;
  /** The internal credential: the page takes it as the inspector does (header or session cookie). */
  credential: string;
}

export function conformanceRoutes(deps: ConformanceRoutesDeps): { api: Hono; page: Hono } {
  const { store, clock } = deps;

  async function knownMember(c: Context): Promise<string> {
    const member = memberParam(c);
    if (!(await memberKnown(store, member)))
      throw new NotFoundError(`no member '${member}': not in the directory and never counted`, [
        { path: 'path:member', message: 'unknown member' },
      ]);
    return member;
  }

  async function replayDownload(c: Context) {
    const member = await knownMember(c);
    const file = await productionReplayFile(store, member, clock);
    c.header('content-disposition', `attachment; filename="replay-${member.replace(/[^\w.-]/g, '_')}.json"`);
    return c.json(file);
  }

  const api = new Hono();
  api.get('/', async (c) => c.json(await conformanceReport(store, { clock })));
  api.get('/:member', async (c) => {
    const member = await knownMember(c);
    const report = await conformanceReport(store, { clock, member });
    return c.json({ generated_at: report.generated_at, ...report.members[0] });
  });
  api.get('/:member/replay', replayDownload);

  const access = inspectorAccess(deps.credential, clock);
  const page = new Hono();
  page.get('/', async (c) => {
    // Without the credential or a session: the inspector's sign-in, which opens the inspector.
    if (!access.allowed(c))
      return c.body(loginPage('Gateway — production conformance', '/inspector'), 200, loginPageHeaders);
    const report = await conformanceReport(store, { clock });
    return c.body(conformancePage(report, c.req.path.replace(/\/+$/, '')), 200, conformancePageHeaders);
  });
  page.use('/:member/replay', access.guard);
  page.get('/:member/replay', replayDownload);
  return { api, page };
}
