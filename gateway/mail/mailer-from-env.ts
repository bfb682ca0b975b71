import { resolve } from 'node:path';
import type { Mailer } from './mailer';
import { createFileMailer } from './file-mailer';
import { createSmtpMailer } from './smtp-mailer';

// MAIL_TRANSPORT=file (default: .eml files under MAIL_OUTBOX_DIR, default var/outbox) or
// smtp (SMTP_URL, e.g. smtp://user:pass@mail.example.com:587; SMTP_IGNORE_TLS=true to skip
// STARTTLS). MAIL_FROM is the sender of every message.

export const DEFAULT_MAIL_FROM = 'Federated Gateway <no-reply@gateway.localhost>';

export function mailerFromEnv(env: NodeJS.ProcessEnv = process.env): Mailer {
  const kind = (env.MAIL_TRANSPORT ?? 'file').trim().toLowerCase();
  if (kind === 'file' || kind === '') return createFileMailer(resolve(env.MAIL_OUTBOX_DIR ?? 'var/outbox'));
  if (kind === 'smtp') {
    if (!env.SMTP_URL) throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL (smtp://user:pass@host:port)');
    return createSmtpMailer({ url: env.SMTP_URL, ignoreTls: env.SMTP_IGNORE_TLS === 'true' });
  }
  throw new Error(`MAIL_TRANSPORT must be 'file' or 'smtp', not '${env.MAIL_TRANSPORT}'`);
}

export const mailFromEnv = (env: NodeJS.ProcessEnv = process.env): string => env.MAIL_FROM ?? DEFAULT_MAIL_FROM;
