import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { NamedError } from '../shared/domain-errors.ts';

export type CipherKey = { id: string; key: Buffer };

export type TokenCipher = {
  /** The id of the key new ciphertexts are made with (stored as `integrations.key_id`). */
  readonly currentKeyId: string;
  encrypt(plaintext: string): string;
  /** Throws TokenCipherError when the value was altered, is malformed, or its key is not configured. */
  decrypt(ciphertext: string): string;
  /** The id of the key a ciphertext was made with, without decrypting it. */
  keyIdOf(ciphertext: string): string;
};

export class TokenCipherError extends NamedError {}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random 96-bit IV per value: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url).
 * The first key encrypts; every key decrypts, so a key can be rotated in by putting a new one first
 * and removed once no stored value names it any more. The `v1.<keyId>` header is authenticated too.
 */
export function createTokenCipher(keys: readonly CipherKey[]): TokenCipher {
  const [current] = keys;
  if (!current) throw new TokenCipherError('At least one token encryption key is needed');
  const byId = new Map<string, Buffer>();
  for (const { id, key } of keys) {
    if (key.length !== 32) throw new TokenCipherError(`Token key ${id} is not 32 bytes`);
    if (id.includes('.') || id === '')
      throw new TokenCipherError(`Token key id ${JSON.stringify(id)} is not valid`);
    byId.set(id, key);
  }

  const split = (value: string) => {
    const parts = value.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new TokenCipherError('Not an encrypted token');
    const [, keyId = '', iv = '', tag = '', data = ''] = parts;
    return { keyId, iv, tag, data };
  };

  return {
    currentKeyId: current.id,

    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(`${VERSION}.${current.id}`));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, current.id, iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },

    decrypt(ciphertext) {
      const { keyId, iv, tag, data } = split(ciphertext);
      const key = byId.get(keyId);
      if (!key) throw new TokenCipherError(`No token key with id ${keyId} is configured`);
      const ivBytes = Buffer.from(iv, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
        throw new TokenCipherError('Malformed encrypted token');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch (error) {
        throw new TokenCipherError('Encrypted token failed authentication', { cause: error });
      }
    },

    keyIdOf: (ciphertext) => split(ciphertext).keyId,
  };
}
