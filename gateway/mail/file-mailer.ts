import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

// The local default: each message composed by nodemailer exactly as SMTP would carry it and
// written as an .eml file a developer can open in any mail client.

export function createFileMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    description: `file ${dir}`,
    async send(message: MailMessage) {
      const info = await transport.sendMail(message);
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const id = info.messageId.replace(/[^A-Za-z0-9-]/g, '');
      await writeFile(join(dir, `${stamp}-${id}.eml`), info.message as Buffer);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
