import { and, between, eq, getTableColumns, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { noticeMails } from '#server/db/schema/notices.table.ts';
import { syncProblems, syncStates } from '#server/db/schema/sync.tables.ts';
import { users } from '#server/db/schema/users.table.ts';
import {
  type AccountToReconnect,
  accountsToReconnectOf,
  accountsToReconnectSchema,
  hasAccountsToReconnect,
  reconnectOtherCalendarProblem,
} from '#server/db/views/accounts-to-reconnect.ts';
import type { SubscriptionStatus } from '#shared/api/current-user.schema.ts';
import type { SyncProblemCode } from '#shared/api/sync.schema.ts';
import type { HeldCause } from '#shared/sync/held-removals.ts';
import { type NoticeKind, type NoticeRecord, TRIAL_WARNING_MS } from './notice-rules.ts';

const DAY_MS = 86_400_000;
const INCOMPLETE_STATUSES = ['incomplete', 'incomplete_expired', 'past_due', 'unpaid'] as const;

/** What the notice rules need of one user. */
export type NoticeSubject = {
  email: string;
  firstName: string;
  prefs: { mails: boolean; resolvedMails: boolean };
  /** The version a mail's "turn them off" link is signed for now. */
  offLinkVersion: number;
  payment: { subscriptionStatus: SubscriptionStatus; validUntil: Date };
  problems: { code: SyncProblemCode; since: Date }[];
  mailed: NoticeRecord[];
  /** The removals the safety brake holds back now (counts and cause, for the mail); null when none. */
  held: { events: number; tasks: number; cause: HeldCause | null } | null;
  /** The added calendar accounts Plan my day cannot read now (for their mail, by address). */
  accountsToReconnect: AccountToReconnect[];
};

export type NoticeRepository = {
  subject(userId: string): Promise<NoticeSubject | undefined>;
  /**
   * Claims an occurrence for its mail: the kind's record now names it. False when another check
   * claimed it first (two checks of one user at once send one mail).
   */
  recordStarted(userId: string, kind: NoticeKind, occurrence: Date, now: Date): Promise<boolean>;
  /** Claims the end of the recorded occurrence; false when it was already recorded. */
  recordEnded(userId: string, kind: NoticeKind, now: Date): Promise<boolean>;
  /** Users who may be due a notice: open problems (an added calendar account to connect again too), a trial ending or ended, a payment problem, or a mailed notice not yet seen to end. */
  usersToCheck(now: Date): Promise<string[]>;
};

/** The only writer of `notice_mails`; reads the user's sync problems and payment state. */
export function createNoticeRepository(db: Db): NoticeRepository {
  return {
    async subject(userId) {
      const [user] = await db
        .select({ ...getTableColumns(users), toReconnect: accountsToReconnectOf(users.id) })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) return undefined;
      const accountsToReconnect = accountsToReconnectSchema.parse(user.toReconnect);
      const blind = reconnectOtherCalendarProblem(accountsToReconnect);
      const [problems, mailed, [state]] = await Promise.all([
        db.select().from(syncProblems).where(eq(syncProblems.userId, userId)),
        db.select().from(noticeMails).where(eq(noticeMails.userId, userId)),
        db
          .select({ events: syncStates.heldEvents, tasks: syncStates.heldTasks, cause: syncStates.heldCause })
          .from(syncStates)
          .where(eq(syncStates.userId, userId)),
      ]);
      return {
        email: user.email,
        firstName: user.firstName,
        prefs: { mails: user.noticeMails, resolvedMails: user.noticeMailsResolved },
        offLinkVersion: user.noticeOffLinkVersion,
        payment: {
          subscriptionStatus: user.subscriptionStatus as SubscriptionStatus,
          validUntil: user.validUntil,
        },
        problems: [
          ...problems.map((row) => ({ code: row.code as SyncProblemCode, since: row.since })),
          ...(blind ? [blind] : []),
        ],
        mailed: mailed.map((row) => ({
          kind: row.kind as NoticeKind,
          occurrence: row.occurrence,
          sentAt: row.sentAt,
          endedAt: row.endedAt,
        })),
        held: state && state.events + state.tasks > 0 ? state : null,
        accountsToReconnect,
      };
    },

    async recordStarted(userId, kind, occurrence, now) {
      const claimed = await db
        .insert(noticeMails)
        .values({ userId, kind, occurrence, sentAt: now, endedAt: null })
        .onConflictDoUpdate({
          target: [noticeMails.userId, noticeMails.kind],
          set: { occurrence, sentAt: now, endedAt: null },
          setWhere: ne(noticeMails.occurrence, occurrence),
        })
        .returning({ kind: noticeMails.kind });
      return claimed.length > 0;
    },

    async recordEnded(userId, kind, now) {
      const claimed = await db
        .update(noticeMails)
        .set({ endedAt: now })
        .where(and(eq(noticeMails.userId, userId), eq(noticeMails.kind, kind), isNull(noticeMails.endedAt)))
        .returning({ kind: noticeMails.kind });
      return claimed.length > 0;
    },

    async usersToCheck(now) {
      // A payment date more than two days past was checked many times already (every 15 minutes).
      const recent = new Date(now.getTime() - 2 * DAY_MS);
      const soon = new Date(now.getTime() + TRIAL_WARNING_MS);
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.noticeMails, true),
            or(
              sql`exists (select 1 from ${syncProblems} where ${syncProblems.userId} = ${users.id})`,
              hasAccountsToReconnect(users.id),
              sql`exists (select 1 from ${noticeMails} where ${noticeMails.userId} = ${users.id} and ${noticeMails.endedAt} is null)`,
              and(eq(users.subscriptionStatus, 'trial'), between(users.validUntil, recent, soon)),
              inArray(users.subscriptionStatus, [...INCOMPLETE_STATUSES]),
              and(eq(users.subscriptionStatus, 'active'), between(users.validUntil, recent, now)),
            ),
          ),
        );
      return rows.map((row) => row.id);
    },
  };
}
