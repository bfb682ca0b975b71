import type { Queryable } from '../store/store';
import type { ComposedMail, MailComposer } from '../mail/outbox-dispatcher';
import type { NewMail, OutboxEntry } from '../mail/outbox';
import { hashPassword } from './password-hash';
import { generateTemporaryPassword } from './temporary-password';

// The welcome message with the new user's login. The temporary password is generated when
// the message is rendered for sending and its scrypt hash is stored only once the mail
// server accepted the message (in the dispatcher's `sent` transaction). So the outbox table
// never holds a password, and the password that works is the one in the last mail sent.

export const WELCOME_KIND = 'welcome';
export const WELCOME_SUBJECT = 'Welcome to the Federated Gateway: your login';

export interface WelcomePayload {
  username: string;
  first_name: string;
}

export function welcomeMail(user: { id: number; email: string; username: string; first_name: string }): NewMail {
  const payload: WelcomePayload = { username: user.username, first_name: user.first_name };
  return {
    kind: WELCOME_KIND,
    recipient: user.email,
    subject: WELCOME_SUBJECT,
    payload: { ...payload },
    userId: user.id,
  };
}

export function welcomeText(payload: WelcomePayload, temporaryPassword: string): string {
  return [
    `Hello ${payload.first_name},`,
    '',
    'An account has been created for you on the Federated Gateway.',
    '',
    `  Username:           ${payload.username}`,
    `  Temporary password: ${temporaryPassword}`,
    '',
    'Please sign in and choose a new password.',
    'If you did not expect this message, tell your administrator.',
    '',
  ].join('\r\n');
}

async function composeWelcome(entry: OutboxEntry): Promise<ComposedMail> {
  const userId = entry.userId;
  if (userId === null) throw new Error('welcome message without a user');
  const payload = entry.payload as unknown as WelcomePayload;
  const password = generateTemporaryPassword();
  const hash = await hashPassword(password);
  return {
    text: welcomeText(payload, password),
    async onSent(tx: Queryable) {
      await tx.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, userId]);
    },
  };
}

/** The composers the outbox dispatcher needs for the messages this API queues. */
export const userMailComposers: Record<string, MailComposer> = { [WELCOME_KIND]: composeWelcome };
