import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { StoredCalendar } from './settings.tables.ts';
import { users } from './users.table.ts';

/**
 * A connected provider account: one Todoist and any number of calendar accounts (Google or Microsoft)
 * per user (decision 028). Position 0 of a kind is the sync's account (the Todoist account, and the
 * calendar account holding the chosen calendar); calendar accounts added beside it take 1, 2, …, so
 * the first connected stays the sync's until it is removed. Tokens are stored only encrypted
 * (AES-256-GCM), with the id of the key that encrypted them.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'todoist' | 'calendar'>().notNull(),
    /** 0: the sync's account of this kind; an added calendar account 1, 2, … in the order connected. */
    position: integer('position').notNull().default(0),
    provider: text('provider').$type<'todoist' | 'google' | 'microsoft'>().notNull(),
    accountId: text('account_id'),
    /** The account's address at the provider, to tell accounts apart (null: not read yet). */
    email: text('email'),
    /**
     * An added account's calendars as last listed; null for the sync's account, whose list is
     * `calendar_settings.calendars` (the sync reads it there).
     */
    calendars: jsonb('calendars').$type<StoredCalendar[]>(),
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    keyId: text('key_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The provider refused our token (revoked outside the product): the user must connect again. */
    needsReconnect: boolean('needs_reconnect').notNull().default(false),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('integrations_user_kind_position_idx').on(table.userId, table.kind, table.position),
    // The same account connected again refreshes its row, never makes a second one.
    uniqueIndex('integrations_user_account_idx').on(table.userId, table.provider, table.accountId),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
