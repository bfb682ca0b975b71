import { describe, it, expect } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileMailer } from './file-mailer';
import { createSmtpMailer } from './smtp-mailer';
import { mailerFromEnv, mailFromEnv, DEFAULT_MAIL_FROM } from './mailer-from-env';
import { startLoopbackSmtpServer } from '../testing/loopback-smtp-server';
import { temporaryDirectory } from '../../shared/testing/temporary-directory';

const message = {
  from: 'Gateway <no-reply@gateway.test>',
  to: 'ann@example.com',
  subject: 'Hello Ann',
  text: 'Line one\r\nLine two',
};

describe('mailers', () => {
  it('delivers over SMTP to a real server on loopback', async () => {
    const server = await startLoopbackSmtpServer();
    const mailer = createSmtpMailer({ url: server.url });
    try {
      const { messageId } = await mailer.send(message);
      expect(server.received).toHaveLength(1);
      const [mail] = server.received;
      expect(mail.to).toEqual(['ann@example.com']);
      expect(mail.from).toBe('no-reply@gateway.test');
      expect(mail.raw).toMatch(/^Subject: Hello Ann\r$/m);
      expect(mail.raw).toContain('Line one');
      expect(mail.raw).toContain(`Message-ID: ${messageId}`);
    } finally {
      mailer.close();
      await server.stop();
    }
  });

  it('rejects when the SMTP server is down', async () => {
    const server = await startLoopbackSmtpServer();
    await server.stop();
    const mailer = createSmtpMailer({ url: server.url, timeoutMs: 2_000 });
    await expect(mailer.send(message)).rejects.toThrow(/ECONNREFUSED|connect/i);
    mailer.close();
  });

  it('writes each message as an .eml file a mail client can open', async () => {
    const dir = temporaryDirectory('outbox');
    const mailer = createFileMailer(join(dir, 'nested'));
    await mailer.send(message);
    await mailer.send({ ...message, subject: 'Second' });
    const files = (await readdir(join(dir, 'nested'))).sort();
    expect(files).toHaveLength(2);
    // Only whole messages: none left under its temporary name.
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const eml = await readFile(join(dir, 'nested', files[0]), 'utf8');
    expect(eml).toMatch(/^To: ann@example.com\r$/m);
    expect(eml).toMatch(/^Subject: (Hello Ann|Second)\r$/m);
    expect(eml).toContain('Line one\r\nLine two');
  });

  it('defaults to .eml files under var/outbox and switches to SMTP with MAIL_TRANSPORT=smtp', () => {
    expect(mailerFromEnv({}).description).toMatch(/^file .*var[\\/]outbox$/);
    expect(mailerFromEnv({ MAIL_OUTBOX_DIR: '/tmp/x' }).description).toBe('file /tmp/x');
    expect(mailerFromEnv({ MAIL_TRANSPORT: 'smtp', SMTP_URL: 'smtp://mail.example.com:2525' }).description).toBe(
      'smtp mail.example.com:2525',
    );
    expect(() => mailerFromEnv({ MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL/);
    expect(() => mailerFromEnv({ MAIL_TRANSPORT: 'pigeon' })).toThrow(
      "MAIL_TRANSPORT must be one of file, smtp, not 'pigeon'",
    );
    expect(mailFromEnv({})).toBe(DEFAULT_MAIL_FROM);
  });
});
