// What the outbox dispatcher hands a message to. Implementations: SMTP (smtp-mailer.ts)
// and .eml files in a folder (file-mailer.ts); both compose with nodemailer.

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the message is accepted (by the SMTP server, or written to disk); rejects otherwise. */
  send(message: MailMessage): Promise<{ messageId: string }>;
  /** 'smtp host:port' or 'file <dir>', for logs and `npm run outbox`. */
  readonly description: string;
  close(): void;
}
