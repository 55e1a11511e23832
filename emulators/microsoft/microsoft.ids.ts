import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Exchange-style opaque ids: URL-safe base64 with the `AAMkA` prefix and the `=` Graph ids end with. */
export function exchangeId(): string {
  return `AAMkAD${randomBytes(48).toString('base64url')}AAA=`;
}

/** A stable id carrying `payload`, for occurrences of a series (decoded by `decodeDerivedId`). */
export function derivedId(payload: string): string {
  return `AAMkAE${Buffer.from(payload).toString('base64url')}=`;
}

export function decodeDerivedId(id: string): string | undefined {
  if (!id.startsWith('AAMkAE') || !id.endsWith('=')) return undefined;
  return Buffer.from(id.slice(6, -1), 'base64url').toString('utf8');
}

/** A fresh change key (`EZ9r3czxY0m2jz8c45czkwAAFXcvIQ==` in the docs); the etag is `W/"<changeKey>"`. */
export function newChangeKey(): string {
  return randomBytes(22).toString('base64');
}

export function iCalUId(): string {
  return `040000008200E00074C5B7101A82E00800000000${randomBytes(28).toString('hex').toUpperCase()}`;
}

/** A GUID that is always the same for the same seed (users keep their id across resets). */
export function guidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const guid = (): string => randomUUID();
