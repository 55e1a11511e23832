import type { IntegrationRow } from '#server/db/schema/integrations.table.ts';
import type { SessionRow } from '#server/db/schema/sessions.table.ts';
import type { UserRow } from '#server/db/schema/users.table.ts';
import { isConnected, sortLabels } from '#shared/settings/rules.ts';
import type { StripeEventRepository } from '../billing/stripe-event.repository.ts';
import type { IntegrationRepository } from '../integrations/integration.repository.ts';
import type { SessionRepository } from '../sessions/session.repository.ts';
import { type LabelSeen, labelChanges, renamesInForce, renamesOf } from '../settings/label-identity.ts';
import type {
  AppliedLabelChanges,
  CalendarSettingsRow,
  FollowedLabels,
  SettingsRepository,
  TodoSettingsRow,
} from '../settings/settings.repository.ts';
import type { UserRepository } from '../users/user.repository.ts';

/**
 * In-memory repositories with the same rules as the Drizzle ones (unique keys, scoping by user), for
 * the services' unit tests. Their rows are public so a test can arrange them and read what was written.
 */

const EPOCH = new Date('2026-01-01T00:00:00.000Z');

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

/** A connected account's row: tokens sealed, connected at `at`. */
export function integrationRow(
  userId: string,
  kind: IntegrationRow['kind'],
  provider: IntegrationRow['provider'],
  accountId: string | null,
  at: Date,
): IntegrationRow {
  return {
    userId,
    kind,
    provider,
    accountId,
    accessTokenEncrypted: 'sealed',
    refreshTokenEncrypted: null,
    keyId: 'k1',
    expiresAt: null,
    needsReconnect: false,
    connectedAt: at,
    updatedAt: at,
  };
}

export type InMemoryIntegrations = IntegrationRepository & { rows: Map<string, IntegrationRow> };

export function inMemoryIntegrations(): InMemoryIntegrations {
  const rows = new Map<string, IntegrationRow>();
  const key = (userId: string, kind: string) => `${userId}:${kind}`;
  const matching = (ref: { userId: string; kind: string; connectedAt: Date }) => {
    const row = rows.get(key(ref.userId, ref.kind));
    return row && row.connectedAt.getTime() === ref.connectedAt.getTime() ? row : undefined;
  };
  return {
    rows,
    find: async (userId, kind) => rows.get(key(userId, kind)),
    upsert: async (connection, now) => {
      rows.set(key(connection.userId, connection.kind), {
        ...connection,
        needsReconnect: false,
        connectedAt: now,
        updatedAt: now,
      });
    },
    updateTokens: async (ref, tokens, now) => {
      const row = matching(ref);
      if (row) Object.assign(row, tokens, { needsReconnect: false, updatedAt: now });
    },
    markNeedsReconnect: async (ref, now) => {
      const row = matching(ref);
      if (row) Object.assign(row, { needsReconnect: true, updatedAt: now });
    },
    delete: async (userId, kind) => {
      rows.delete(key(userId, kind));
    },
    onOtherKeys: async (keyId, limit) => {
      const other = [...rows.values()].filter((row) => row.keyId !== keyId);
      return { rows: other.slice(0, limit).map((row) => ({ ...row })), remaining: other.length };
    },
    reencrypt: async (read, tokens) => {
      const row = rows.get(key(read.userId, read.kind));
      const unchanged =
        row?.accessTokenEncrypted === read.accessTokenEncrypted &&
        row.refreshTokenEncrypted === read.refreshTokenEncrypted;
      if (row && unchanged) Object.assign(row, tokens);
      return unchanged;
    },
  };
}

export function todoRow(userId: string, overrides: Partial<TodoSettingsRow> = {}): TodoSettingsRow {
  return {
    userId,
    accountType: 'Free',
    todoistUserId: 'todoist-1',
    timezone: 'Europe/Berlin',
    labels: [],
    labelRenames: [],
    taskDurationActive: false,
    taskDurationLabel: null,
    taskDurationLabelId: null,
    onComplete: 'nothing',
    onPreComplete: false,
    projects: [],
    projectScope: null,
    eventProjectId: null,
    datedTasks: 'skip',
    updatedAt: EPOCH,
    ...overrides,
  };
}

export function calendarRow(
  userId: string,
  overrides: Partial<CalendarSettingsRow> = {},
): CalendarSettingsRow {
  return {
    userId,
    calendarId: null,
    calendars: [],
    categories: [],
    color: '',
    category: null,
    private: false,
    autoplan: null,
    todoistLinkDescription: false,
    reminder: null,
    updatedAt: EPOCH,
    ...overrides,
  };
}

export type TimeboxRow = {
  userId: string;
  label: string;
  labelId: string | null;
  duration: number;
  createdAt: Date;
};

export type InMemorySettings = SettingsRepository & {
  todo: Map<string, TodoSettingsRow>;
  calendar: Map<string, CalendarSettingsRow>;
  timeboxes: TimeboxRow[];
};

/** Readiness is read from the integrations given, as the Drizzle repository reads that table. */
export function inMemorySettings(
  integrations: InMemoryIntegrations = inMemoryIntegrations(),
): InMemorySettings {
  const todo = new Map<string, TodoSettingsRow>();
  const calendar = new Map<string, CalendarSettingsRow>();
  const timeboxes: TimeboxRow[] = [];
  const same = (userId: string, label: string) => (row: TimeboxRow) =>
    row.userId === userId && row.label.toLowerCase() === label.toLowerCase();
  const uniqueViolation = () => new Error('duplicate key', { cause: { code: '23505' } });
  const upsertTodo = (userId: string, patch: Partial<TodoSettingsRow>) =>
    todo.set(userId, {
      ...(todo.get(userId) ?? todoRow(userId, { accountType: null, todoistUserId: null, timezone: null })),
      ...patch,
    });
  const upsertCalendar = (userId: string, patch: Partial<CalendarSettingsRow>) =>
    calendar.set(userId, { ...(calendar.get(userId) ?? calendarRow(userId)), ...patch });
  const followLabels = (
    userId: string,
    labels: readonly LabelSeen[],
    complete: boolean,
  ): AppliedLabelChanges => {
    const rows = timeboxes.filter((row) => row.userId === userId);
    const followed: FollowedLabels = { timeboxes: [], taskDurationLabel: null };
    for (const { from, to } of labelChanges(rows, labels, complete)) {
      if (rows.some((other) => other !== from && same(userId, to.label)(other))) continue;
      followed.timeboxes.push({ from: from.label, to });
      Object.assign(from, to);
    }
    const row = todo.get(userId);
    const durationRename: { from: string; to: string }[] = [];
    if (row?.taskDurationLabel) {
      const reference = { label: row.taskDurationLabel, labelId: row.taskDurationLabelId };
      const [change] = labelChanges([reference], labels, complete);
      if (change) {
        upsertTodo(userId, { taskDurationLabel: change.to.label, taskDurationLabelId: change.to.labelId });
        followed.taskDurationLabel = change.to;
        durationRename.push({ from: change.from.label, to: change.to.label });
      }
    }
    const renames = renamesOf([
      ...followed.timeboxes.map(({ from, to }) => ({ from, to: to.label })),
      ...durationRename,
    ]);
    const kept = todo.get(userId)?.labelRenames ?? [];
    if (renames.length > 0) upsertTodo(userId, { labelRenames: [...kept, ...renames] });
    return { ...followed, renames };
  };

  return {
    todo,
    calendar,
    timeboxes,
    async readiness(userId) {
      const linked = [...integrations.rows.values()].filter((row) => row.userId === userId);
      return {
        todoistConnected: isConnected(linked.find((row) => row.kind === 'todoist')),
        calendarConnected: isConnected(linked.find((row) => row.kind === 'calendar')),
        calendarProvider: linked.find((row) => row.kind === 'calendar')?.provider ?? null,
        todo: todo.get(userId),
        calendar: calendar.get(userId),
        timeboxCount: timeboxes.filter((row) => row.userId === userId).length,
      };
    },
    timeboxLabels: async (userId) => timeboxes.filter((row) => row.userId === userId).map((row) => row.label),
    async addTimebox(userId, label, duration, now) {
      if (timeboxes.some(same(userId, label.label))) throw uniqueViolation();
      timeboxes.push({ userId, ...label, duration, createdAt: now });
    },
    async updateTimebox(userId, label, newLabel, duration) {
      const row = timeboxes.find(same(userId, label));
      if (!row) return false;
      if (timeboxes.some((other) => other !== row && same(userId, newLabel.label)(other)))
        throw uniqueViolation();
      Object.assign(row, { ...newLabel, duration });
      return true;
    },
    async deleteTimebox(userId, label) {
      const index = timeboxes.findIndex(same(userId, label));
      if (index < 0) return false;
      timeboxes.splice(index, 1);
      return true;
    },
    patchTodo: async (userId, patch, now) => {
      upsertTodo(userId, { ...patch, updatedAt: now });
    },
    patchCalendar: async (userId, patch, now) => {
      const row = calendar.get(userId);
      if (row) calendar.set(userId, { ...row, ...patch, updatedAt: now });
    },
    labels: async (userId) => todo.get(userId)?.labels ?? [],
    saveTodoistAccount: async (userId, account, now) => {
      upsertTodo(userId, { ...account, updatedAt: now });
      followLabels(userId, account.labels, true);
    },
    saveTodoistLabels: async (userId, labels, now) => {
      upsertTodo(userId, { labels, updatedAt: now });
      followLabels(userId, labels, true);
    },
    applyLabelChanges: async (userId, changed, complete, now) => {
      const byId = new Map(
        complete ? [] : (todo.get(userId)?.labels ?? []).map((label) => [label.id, label]),
      );
      for (const { deleted, ...label } of changed) {
        if (deleted) byId.delete(label.id);
        else byId.set(label.id, label);
      }
      const labels = sortLabels([...byId.values()]);
      const kept = todo.get(userId)?.labelRenames ?? [];
      upsertTodo(userId, { labels, updatedAt: now });
      const followed = followLabels(userId, changed, complete);
      return { ...followed, renames: renamesInForce([...kept, ...followed.renames], labels) };
    },
    saveTodoistProjects: async (userId, projects, now) => {
      const row = todo.get(userId);
      if (row) todo.set(userId, { ...row, projects, updatedAt: now });
    },
    forgetLabelRenames: async (userId, renames) => {
      const carried = (rename: { from: string; to: string }) =>
        renames.some((each) => each.from === rename.from && each.to === rename.to);
      const row = todo.get(userId);
      if (row) upsertTodo(userId, { labelRenames: row.labelRenames.filter((rename) => !carried(rename)) });
    },
    saveCalendarAccount: async (userId, account, now) => {
      upsertCalendar(userId, { ...account, updatedAt: now });
    },
    forgetCalendarChoice: async (userId, now) => {
      const row = calendar.get(userId);
      if (row) {
        calendar.set(userId, {
          ...row,
          calendarId: null,
          calendars: [],
          categories: [],
          color: '',
          category: null,
          updatedAt: now,
        });
      }
    },
  };
}

export type InMemorySessions = SessionRepository & { rows: Map<string, SessionRow> };

export function inMemorySessions(...initial: SessionRow[]): InMemorySessions {
  const rows = new Map(initial.map((row) => [row.idHash, { ...row }]));
  return {
    rows,
    insert: async (row) => {
      if (rows.has(row.idHash)) throw new Error('duplicate key', { cause: { code: '23505' } });
      rows.set(row.idHash, { ...row });
    },
    find: async (idHash) => rows.get(idHash),
    touch: async (idHash, lastSeenAt, expiresAt) => {
      const row = rows.get(idHash);
      if (row) rows.set(idHash, { ...row, lastSeenAt, expiresAt });
    },
    delete: async (idHash) => {
      rows.delete(idHash);
    },
    deleteExpired: async (now, userId) => {
      for (const [idHash, row] of rows) {
        if (row.userId === userId && row.expiresAt < now) rows.delete(idHash);
      }
    },
  };
}

export type InMemoryStripeEvents = StripeEventRepository & {
  rows: Map<string, { type: string; processedAt: Date }>;
};

export function inMemoryStripeEvents(): InMemoryStripeEvents {
  const rows = new Map<string, { type: string; processedAt: Date }>();
  return {
    rows,
    wasProcessed: async (eventId) => rows.has(eventId),
    markProcessed: async (eventId, type, now) => {
      if (!rows.has(eventId)) rows.set(eventId, { type, processedAt: now });
    },
  };
}
