import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

// Delivery over SMTP. `url` is nodemailer's connection URL, e.g. smtp://user:pass@host:587
// or smtps://host:465. Short timeouts: a mail server that hangs must not hold the dispatcher.

export interface SmtpMailerOptions {
  url: string;
  /** Skip STARTTLS even when offered (loopback test servers with self-signed certificates). */
  ignoreTls?: boolean;
  timeoutMs?: number;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = new URL(options.url);
  const transport = nodemailer.createTransport({
    url: options.url,
    ignoreTLS: options.ignoreTls ?? false,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // One connection per message: the outbox sends rarely, and a stale pooled socket would
    // turn a healthy server into a failed attempt.
    pool: false,
  });
  return {
    description: `smtp ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
    async send(message: MailMessage) {
      const info = await transport.sendMail(message);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
