import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.table.ts';

/**
 * The notice mails a user was sent, one row per kind of notice (sync needs a new grant, trial ending
 * …): which occurrence of it was mailed and when, so a problem is mailed once, not once per run, and
 * not again within a day; and whether its end was seen. Never any task or event text.
 */
export const noticeMails = pgTable(
  'notice_mails',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** When the mailed occurrence began (a problem's `since`, the trial's end …). */
    occurrence: timestamp('occurrence', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    /** When the end of that occurrence was seen (and mailed, to users who asked for that). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] })],
);
