import { createHmac } from 'node:crypto';

/** The mark a completed task's event carries with the "checkmark" on-complete setting. */
export const CHECKMARK = '✓ ';

export const withoutCheckmark = (title: string) =>
  title.startsWith(CHECKMARK) ? title.slice(CHECKMARK.length) : title;

export const eventTitle = (taskTitle: string, marked: boolean) =>
  marked ? `${CHECKMARK}${taskTitle}` : taskTitle;

/**
 * Titles are stored only as keyed hashes (HMAC-SHA-256 with a per-user key): enough to tell a change,
 * never the text, and not comparable across users or against a dictionary of common titles at once.
 */
export type TitleHasher = (title: string) => string;

export const titleHasher =
  (key: string): TitleHasher =>
  (title) =>
    createHmac('sha256', key).update(title.normalize('NFC')).digest('base64url');
