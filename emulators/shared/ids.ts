import { createHash, randomBytes } from 'node:crypto';

/** A stable numeric id of `digits` digits derived from `seed` (SHA-256); it never starts with 0. */
export function numericIdFrom(seed: string, digits: number): string {
  const hash = createHash('sha256').update(seed).digest('hex');
  const body = (BigInt(`0x${hash}`) % 10n ** BigInt(digits - 1)).toString().padStart(digits - 1, '0');
  return `1${body}`;
}

/** A random string of letters and digits, like the opaque codes and tokens the providers hand out. */
export function randomAlphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

export function randomUrlSafe(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}
