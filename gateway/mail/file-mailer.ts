import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

// The local default: each message composed by nodemailer exactly as SMTP would carry it and
// written as an .eml file a developer can open in any mail client. Written under another name
// and renamed: whoever watches the folder never opens a half-written .eml.

export function createFileMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    description: `file ${dir}`,
    async send(message: MailMessage) {
      const info = await transport.sendMail(message);
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const id = info.messageId.replace(/[^A-Za-z0-9-]/g, '');
      const file = join(dir, `${stamp}-${id}.eml`);
      await writeFile(`${file}.partial`, info.message as Buffer);
      await rename(`${file}.partial`, file);
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}
