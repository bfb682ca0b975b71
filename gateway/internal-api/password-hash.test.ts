import { describe, it, expect } from 'vitest';
import { hashPassword, verifyPassword } from './password-hash';
import { generateTemporaryPassword } from './temporary-password';

describe('temporary passwords', () => {
  it('are 16 characters without look-alikes, and differ each time', () => {
    const passwords = Array.from({ length: 200 }, () => generateTemporaryPassword());
    for (const p of passwords) expect(p).toMatch(/^[A-HJ-NP-Za-km-z2-9]{16}$/);
    expect(new Set(passwords).size).toBe(200);
  });
});

describe('password hashes', () => {
  it('are salted scrypt hashes that verify the password and nothing else', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'plain-text')).toBe(false);
  });
});
