import { randomInt } from 'node:crypto';

// A temporary password a person can type from an e-mail: no look-alikes (0/O, 1/l/I),
// 16 characters from 57 (~93 bits), drawn with randomInt so no character is favoured.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function generateTemporaryPassword(length = 16): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
