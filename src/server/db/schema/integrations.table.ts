import { boolean, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.table.ts';

/**
 * A connected provider account: one Todoist and one calendar (Google or Microsoft) per user.
 * Tokens are stored only encrypted (AES-256-GCM), with the id of the key that encrypted them.
 */
export const integrations = pgTable(
  'integrations',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'todoist' | 'calendar'>().notNull(),
    provider: text('provider').$type<'todoist' | 'google' | 'microsoft'>().notNull(),
    accountId: text('account_id'),
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    keyId: text('key_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The provider refused our token (revoked outside the product): the user must connect again. */
    needsReconnect: boolean('needs_reconnect').notNull().default(false),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] })],
);

export type IntegrationRow = typeof integrations.$inferSelect;
