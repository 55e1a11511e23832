import type { UserRow } from '#server/db/schema/users.table.ts';
import type { UserRepository } from '../users/user.repository.ts';
import { EPOCH } from './row-epoch.ts';

/**
 * The user repository in memory, with the same rules as the Drizzle one (unique keys, scoping by user),
 * for the services' unit tests. Its rows are public so a test can arrange them and read what was written.
 */

export function userRow(overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: 'user-1',
    firstName: 'Ada',
    displayName: 'Ada Lovelace',
    email: 'ada@example.com',
    googleId: 'google-ada',
    facebookId: null,
    syncActive: false,
    welcomeWizardSeen: false,
    noticeMails: true,
    noticeMailsResolved: false,
    noticeOffLinkVersion: 0,
    subscriptionStatus: 'trial',
    validUntil: new Date('2026-03-15T00:00:00.000Z'),
    planInterval: null,
    canceled: false,
    trialing: false,
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    ...overrides,
  };
}

export type InMemoryUsers = UserRepository & { rows: Map<string, UserRow> };

export function inMemoryUsers(...initial: UserRow[]): InMemoryUsers {
  const rows = new Map(initial.map((row) => [row.id, { ...row }]));
  let created = 0;
  const update = (id: string, patch: Partial<UserRow>) => {
    const row = rows.get(id);
    if (row) rows.set(id, { ...row, ...patch });
  };
  const byProvider = (provider: 'google' | 'facebook', subject: string) =>
    [...rows.values()].find((row) => (provider === 'google' ? row.googleId : row.facebookId) === subject);
  return {
    rows,
    findById: async (id) => rows.get(id),
    findByProviderId: async (provider, subject) => byProvider(provider, subject),
    async insertOrGet(provider, row) {
      const subject = provider === 'google' ? row.googleId : row.facebookId;
      const existing = subject ? byProvider(provider, subject) : undefined;
      if (existing) return existing;
      created += 1;
      const inserted = userRow({
        id: `user-new-${created}`,
        googleId: null,
        facebookId: null,
        ...Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)),
      });
      rows.set(inserted.id, inserted);
      return inserted;
    },
    updateProfile: async (id, profile, now) => update(id, { email: profile.email, updatedAt: now }),
    updatePreferences: async (id, preferences, now) => update(id, { ...preferences, updatedAt: now }),
    async updateNoticeSwitches(id, switches, now) {
      const row = rows.get(id);
      if (!row) return;
      update(id, {
        noticeMails: switches.mails,
        noticeMailsResolved: switches.resolvedMails,
        noticeOffLinkVersion: row.noticeOffLinkVersion + (switches.mails && !row.noticeMails ? 1 : 0),
        updatedAt: now,
      });
    },
    async turnNoticeMailsOff(id, linkVersion, now) {
      if (rows.get(id)?.noticeOffLinkVersion !== linkVersion) return false;
      update(id, { noticeMails: false, updatedAt: now });
      return true;
    },
    findByStripeCustomerId: async (customerId) =>
      [...rows.values()].find((row) => row.stripeCustomerId === customerId),
    async linkStripeCustomer(id, customerId, now) {
      const row = rows.get(id);
      if (row && !row.stripeCustomerId) update(id, { stripeCustomerId: customerId, updatedAt: now });
      return rows.get(id)?.stripeCustomerId ?? null;
    },
    updatePayment: async (id, payment, now) => update(id, { ...payment, updatedAt: now }),
    delete: async (id) => rows.delete(id),
  };
}
