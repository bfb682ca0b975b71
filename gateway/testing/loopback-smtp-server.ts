import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

// A real SMTP server on 127.0.0.1 for tests: accepts every message and keeps it, raw.
// Can be stopped and started again on the same port, to play a mail server that goes down.

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface LoopbackSmtpServer {
  readonly port: number;
  readonly url: string;
  readonly received: ReceivedMail[];
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

function listen(server: SMTPServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
  });
}

export async function startLoopbackSmtpServer(): Promise<LoopbackSmtpServer> {
  const received: ReceivedMail[] = [];
  const make = () =>
    new SMTPServer({
      // Plain SMTP on loopback: no certificate to trust, no credentials to configure.
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
  let server = make();
  const port = await listen(server, 0);
  let up = true;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    async stop() {
      if (!up) return;
      up = false;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restart() {
      if (up) return;
      server = make();
      await listen(server, port);
      up = true;
    },
  };
}
