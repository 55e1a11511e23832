import { randomUrlSafe } from '../shared/ids.ts';

/**
 * Result sets of list calls, kept between pages: the first call fixes the items and the change number
 * they reflect, later pages serve slices of it (so a page retried after a 5xx gives the same answer),
 * and the last page's sync token covers exactly what the pages showed.
 */
export type Cursor<T> = {
  id: string;
  scope: string;
  items: T[];
  snapshotSeq: number;
  syncToken?: string;
};

const MAX_CURSORS = 500;

export class PageCursors<T> {
  #cursors = new Map<string, Cursor<T>>();

  create(scope: string, items: T[], snapshotSeq: number): Cursor<T> {
    const cursor = { id: randomUrlSafe(12), scope, items, snapshotSeq };
    this.#cursors.set(cursor.id, cursor);
    if (this.#cursors.size > MAX_CURSORS) {
      const oldest = this.#cursors.keys().next().value;
      if (oldest !== undefined) this.#cursors.delete(oldest);
    }
    return cursor;
  }

  /** The cursor and offset a page token names, if it is live and belongs to this scope. */
  resolve(pageToken: string, scope: string): { cursor: Cursor<T>; offset: number } | undefined {
    const [id, offsetText] = Buffer.from(pageToken, 'base64url').toString('utf8').split(':');
    const cursor = this.#cursors.get(id ?? '');
    const offset = Number(offsetText);
    if (!cursor || cursor.scope !== scope || !Number.isInteger(offset) || offset < 0) return undefined;
    return { cursor, offset };
  }

  /** A page of the cursor; `nextPageToken` while more follow, else the sync token from `mintSyncToken`. */
  page(cursor: Cursor<T>, offset: number, size: number, mintSyncToken: (seq: number) => string) {
    const items = cursor.items.slice(offset, offset + size);
    if (offset + size < cursor.items.length) {
      return { items, nextPageToken: Buffer.from(`${cursor.id}:${offset + size}`).toString('base64url') };
    }
    cursor.syncToken ??= mintSyncToken(cursor.snapshotSeq);
    return { items, nextSyncToken: cursor.syncToken };
  }

  reset(): void {
    this.#cursors.clear();
  }

  get size(): number {
    return this.#cursors.size;
  }
}
