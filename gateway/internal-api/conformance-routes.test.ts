import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { createExchangeLog } from '../../inspector/exchange-log';
import { createConformanceCounter } from '../conformance/conformance-counter';
import { brokenRules } from '../conformance/reply-judgement';
import type { ReplyCheck } from '../../contracts/index';
import { createInternalApi } from './internal-api';

// The conformance routes on the internal port: the JSON behind the internal credential, a
// member id that is not one (400) or unknown (404), the replay file as a download, and the
// page beside the inspector behind its credential or session, every member's text escaped.

const token = 'a-long-internal-service-token';
const bearer = { authorization: `Bearer ${token}` };
const broken: ReplyCheck = {
  ok: false,
  errors: [],
  violations: [{ rule: 'item.unknown-id', path: '/items/0/id', message: "item id 'x' was not requested" }],
  notes: [],
};

let store: Store;
let app: ReturnType<typeof createInternalApi>;
beforeAll(async () => {
  store = await createTestStore();
  app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token },
    log: () => {},
    inspector: { feed: createExchangeLog() },
  });
  const counter = createConformanceCounter({ store });
  for (const memberId of ['M100', '<b>M-odd</b>'])
    counter.count(
      {
        memberId,
        operation: 'item-inquiry',
        request: { service: 'item_inquiry' },
        replyText: '{}',
        reply: {},
        check: broken,
      },
      brokenRules('item-inquiry', broken),
    );
  await counter.flush();
});
afterAll(() => store.close());

describe('conformance on the internal port', () => {
  it('answers the JSON only with the internal credential', async () => {
    expect((await app.request('/internal/conformance')).status).toBe(401);
    const all = await app.request('/internal/conformance', { headers: bearer });
    expect(all.status).toBe(200);
    const members = ((await all.json()) as { members: { member: string }[] }).members.map((m) => m.member);
    // The directory's members and any member counted, whether or not still in the directory.
    expect(members).toEqual(expect.arrayContaining(['M100', 'M200', '<b>M-odd</b>']));
  });

  it('refuses a member id that is not one (400) and names an unknown member (404)', async () => {
    const long = await app.request(`/internal/conformance/${'M'.repeat(101)}`, { headers: bearer });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ status_code: 4422, errors: [{ path: 'path:member' }] });
    const unknown = await app.request('/internal/conformance/M999/replay', { headers: bearer });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain("no member 'M999'");
  });

  it('serves the replay file as a download, for a member in the directory with nothing broken too', async () => {
    const m100 = await app.request('/internal/conformance/M100/replay', { headers: bearer });
    expect(m100.headers.get('content-disposition')).toBe('attachment; filename="replay-M100.json"');
    expect(await m100.json()).toMatchObject({
      kind: 'production-replay',
      member: 'M100',
      exchanges: [{ rule: 'item.unknown-id', operation: 'item-inquiry', reply: '{}' }],
    });
    const m200 = await app.request('/internal/conformance/M200/replay', { headers: bearer });
    expect(await m200.json()).toMatchObject({ member: 'M200', exchanges: [] });
  });

  it('shows the page with the credential or the inspector session, the sign-in without', async () => {
    const anonymous = await app.request('/inspector/conformance');
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toContain('id="login"');
    expect((await app.request('/inspector/conformance/M100/replay')).status).toBe(401);

    const session = await app.request('/inspector/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const cookie = session.headers.get('set-cookie')!.split(';')[0];
    const page = await app.request('/inspector/conformance', { headers: { cookie } });
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('<section data-member="M100">');
    expect(html).toContain('data-rule="item.unknown-id" data-window="hour" data-broken="1" data-judged="1"');
    expect(html).toContain('href="/inspector/conformance/M100/replay"');
    expect(html).toContain('&lt;b&gt;M-odd&lt;/b&gt;');
    expect(html).not.toContain('<b>M-odd</b>');
    const download = await app.request('/inspector/conformance/M100/replay', { headers: { cookie } });
    expect(download.status).toBe(200);
  });
});
