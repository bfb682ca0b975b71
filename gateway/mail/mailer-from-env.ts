import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { EnvChoice, EnvFlag, EnvString, EnvUrl, Optional, readEnvironment } from '../../shared/environment';
import type { Mailer } from './mailer';
import { createFileMailer } from './file-mailer';
import { createSmtpMailer } from './smtp-mailer';

// .eml files in a folder (default) or SMTP; MAIL_FROM is the sender of every message.

export const DEFAULT_MAIL_FROM = 'Federated Gateway <no-reply@gateway.localhost>';

export const MAIL_ENVIRONMENT = Type.Object({
  MAIL_TRANSPORT: EnvChoice(['file', 'smtp'], {
    default: 'file',
    description: 'how mail leaves: .eml files, or an SMTP server',
  }),
  MAIL_OUTBOX_DIR: EnvString({ default: 'var/outbox', description: 'where MAIL_TRANSPORT=file writes .eml files' }),
  SMTP_URL: Optional(
    EnvUrl({
      schemes: ['smtp:', 'smtps:'],
      description: 'the SMTP server (smtp://user:pass@host:587), needed with MAIL_TRANSPORT=smtp',
    }),
  ),
  SMTP_IGNORE_TLS: EnvFlag({ default: false, description: 'skip STARTTLS (a local test server)' }),
  MAIL_FROM: EnvString({ default: DEFAULT_MAIL_FROM, description: 'sender of every message' }),
});

export function mailerFromEnv(env: NodeJS.ProcessEnv = process.env): Mailer {
  const settings = readEnvironment(MAIL_ENVIRONMENT, env);
  if (settings.MAIL_TRANSPORT === 'file') return createFileMailer(resolve(settings.MAIL_OUTBOX_DIR));
  if (settings.SMTP_URL === undefined)
    throw new Error('MAIL_TRANSPORT=smtp needs SMTP_URL (smtp://user:pass@host:port)');
  return createSmtpMailer({ url: settings.SMTP_URL, ignoreTls: settings.SMTP_IGNORE_TLS });
}

export const mailFromEnv = (env: NodeJS.ProcessEnv = process.env): string =>
  readEnvironment(MAIL_ENVIRONMENT, env).MAIL_FROM;
