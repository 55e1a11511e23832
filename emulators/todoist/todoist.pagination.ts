import { createHmac } from 'node:crypto';
import { errors } from './todoist.errors.ts';

const SECRET = 'todoist-emulator-cursor';

function sign(payload: string): string {
  return createHmac('sha256', SECRET).update(payload).digest('base64url').slice(0, 16);
}

function readCursor(payload: string): { s: string; o: number } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString());
    if (typeof value !== 'object' || value === null) return undefined;
    const { s, o } = value as Record<string, unknown>;
    return typeof s === 'string' && typeof o === 'number' && Number.isInteger(o) && o >= 0
      ? { s, o }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cursor pagination (`results` + `next_cursor`). Cursors are opaque, tied to the user and the filters
 * (`scope`), and hold the position of the next page; a page may be shorter than `limit`.
 */
export function paginate<T, W>(
  items: readonly T[],
  query: { cursor?: string | undefined; limit?: string | undefined },
  scope: string,
  toWire: (item: T) => W,
): { results: W[]; next_cursor: string | null } {
  const limit = query.limit === undefined || query.limit === '' ? 50 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    throw errors.invalid('limit', 'Input should be greater than or equal to 1');
  }
  if (limit > 200) throw errors.invalid('limit', 'Input should be less than or equal to 200');
  let offset = 0;
  if (query.cursor) {
    const [payload = '', signature] = query.cursor.split('.');
    const decoded = signature === sign(payload) ? readCursor(payload) : undefined;
    if (!decoded || decoded.s !== scope) throw errors.invalid('cursor');
    offset = decoded.o;
  }
  const page = items.slice(offset, offset + limit);
  const nextOffset = offset + page.length;
  let next_cursor: string | null = null;
  if (nextOffset < items.length) {
    const payload = Buffer.from(JSON.stringify({ s: scope, o: nextOffset })).toString('base64url');
    next_cursor = `${payload}.${sign(payload)}`;
  }
  return { results: page.map(toWire), next_cursor };
}
