import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Passwords are stored only as scrypt hashes, self-describing so the cost can be raised
// later without breaking old hashes: scrypt$N=32768,r=8,p=1$<salt b64>$<key b64>.

const COST = { N: 32_768, r: 8, p: 1 };
const KEY_LENGTH = 32;
const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

function derive(
  password: string,
  salt: Buffer,
  length: number,
  cost: { N: number; r: number; p: number },
): Promise<Buffer> {
  // 128·N·r bytes of memory; the default 32 MiB cap is exactly too small for N=32768, r=8.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, KEY_LENGTH, COST);
  return `scrypt$N=${COST.N},r=${COST.r},p=${COST.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5], 'base64');
  const key = await derive(password, Buffer.from(m[4], 'base64'), expected.length, { N: +m[1], r: +m[2], p: +m[3] });
  return timingSafeEqual(key, expected);
}
