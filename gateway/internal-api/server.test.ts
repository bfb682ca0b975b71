import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { useTemporaryDirectory } from '../../shared/testing/temporary-directory';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { startLoopbackSmtpServer } from '../testing/loopback-smtp-server';
import { startInternalApi } from './server';
import { DEV_INTERNAL_API_TOKEN } from './internal-api-config';
import { validCreateUserRequest } from '../testing/create-user-request';

let store: Store;
const outboxDir = useTemporaryDirectory('internal-api-outbox');
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store.close();
});

const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 250 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
};

async function createOver(url: string, body: Record<string, unknown>, token = DEV_INTERNAL_API_TOKEN) {
  const res = await request(`${url}/internal/users/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe('startInternalApi', () => {
  it('listens on loopback with the development token and, by default, writes the welcome mail as .eml into the outbox folder', async () => {
    const logs: string[] = [];
    const running = await startInternalApi({
      store,
      port: 0,
      env: { MAIL_OUTBOX_DIR: outboxDir.path },
      log: (l) => logs.push(l),
    });
    try {
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
      expect(logs[0]).toMatch(/development token .*address validator: local; mail: file /);
      expect(logs.join()).not.toContain(DEV_INTERNAL_API_TOKEN);
      const created = await createOver(running.url, validCreateUserRequest());
      expect(created).toEqual({ status: 200, body: { username: 'nina', user_id: expect.any(Number) } });
      // The mailer renames a message into place once written: the .eml is whole when it appears.
      const mails = async () => (await readdir(outboxDir.path)).filter((name) => name.endsWith('.eml'));
      await waitFor(async () => (await mails()).length > 0);
      const [file] = await mails();
      const eml = await readFile(join(outboxDir.path, file), 'utf8');
      expect(eml).toMatch(/^To: nina@new-garage.example\r$/m);
      expect(eml).toMatch(/Temporary password: +\S{16}/);
      expect((await createOver(running.url, validCreateUserRequest(), 'wrong-token')).status).toBe(401);
    } finally {
      await running.close();
    }
  });

  it('delivers over SMTP when MAIL_TRANSPORT=smtp, and takes its token from INTERNAL_API_TOKEN', async () => {
    const smtp = await startLoopbackSmtpServer();
    const token = 'configured-internal-token-1234';
    const running = await startInternalApi({
      store,
      port: 0,
      env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, INTERNAL_API_TOKEN: token },
      log: () => {},
    });
    try {
      expect(
        (await createOver(running.url, validCreateUserRequest({ username: 'ola', email: 'ola@x.example' }))).status,
      ).toBe(401);
      const created = await createOver(
        running.url,
        validCreateUserRequest({ username: 'ola', email: 'ola@x.example' }),
        token,
      );
      expect(created.status).toBe(200);
      await waitFor(async () => smtp.received.length > 0);
      expect(smtp.received.map((m) => m.to)).toEqual([['ola@x.example']]);
    } finally {
      await running.close();
      await smtp.stop();
    }
  });
});
