import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher, TokenCipherError } from './token-cipher.ts';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('token cipher (AES-256-GCM)', () => {
  const k1 = key('k1');
  const cipher = createTokenCipher([k1]);

  it('round-trips, with a fresh IV each time and the key id in the output', () => {
    const token = 'ya29.a0AfH6SM-secret-token';
    const first = cipher.encrypt(token);
    const second = cipher.encrypt(token);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^v1\.k1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(first).not.toContain(token);
    expect(cipher.decrypt(first)).toBe(token);
    expect(cipher.decrypt(second)).toBe(token);
    expect(cipher.keyIdOf(first)).toBe('k1');
    expect(cipher.decrypt(cipher.encrypt(''))).toBe('');
  });

  it('refuses a tampered ciphertext, tag, IV or header', () => {
    const [version, id, iv, tag, data] = cipher.encrypt('refresh-token').split('.') as string[];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    for (const tampered of [
      [version, id, iv, tag, flip(data ?? '')],
      [version, id, iv, flip(tag ?? ''), data],
      [version, id, flip(iv ?? ''), tag, data],
      ['v2', id, iv, tag, data],
    ]) {
      expect(() => cipher.decrypt(tampered.join('.'))).toThrow(TokenCipherError);
    }
    expect(() => cipher.decrypt('plaintext-token')).toThrow(TokenCipherError);
  });

  it('refuses a value whose key id is not configured', () => {
    const other = createTokenCipher([key('k9')]).encrypt('token');
    expect(() => cipher.decrypt(other)).toThrow(/No token key with id k9/);
  });

  it('rotates: the new first key encrypts, the old one still decrypts', () => {
    const old = cipher.encrypt('old-token');
    const rotated = createTokenCipher([key('k2'), k1]);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.decrypt(old)).toBe('old-token');
    const fresh = rotated.encrypt('new-token');
    expect(rotated.keyIdOf(fresh)).toBe('k2');
    expect(() => cipher.decrypt(fresh)).toThrow(TokenCipherError);
  });

  it('needs 32-byte keys', () => {
    expect(() => createTokenCipher([])).toThrow(TokenCipherError);
    expect(() => createTokenCipher([{ id: 'short', key: randomBytes(16) }])).toThrow(/32 bytes/);
  });
});
