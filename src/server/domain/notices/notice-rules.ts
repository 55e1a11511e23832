import type { SubscriptionStatus } from '#shared/api/current-user.schema.ts';
import type { SyncProblemCode } from '#shared/api/sync.schema.ts';
import { isIncomplete } from '#shared/billing/subscription-status.ts';

/**
 * Which notice mails a user is due (docs/product-rules.md §11 "Notices"). Pure: the notice service
 * feeds it the user's open sync problems, payment state and what was mailed before.
 */
/** The sync problems that mean the sync stopped or needs the user: each is mailed as a notice of its own name. */
const PROBLEM_KINDS = [
  'reconnect-todoist',
  'reconnect-calendar',
  'calendar-missing',
  'quota-reached',
  'removals-held',
  'sync-failing',
  'reconnect-other-calendar',
] as const satisfies readonly SyncProblemCode[];
export const NOTICE_KINDS = [
  ...PROBLEM_KINDS,
  // From billing.
  'trial-ending',
  'trial-ended',
  'payment-failed',
  'subscription-ended',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A quota problem is mailed only once it has lasted this long: most clear on the next run. */
export const QUOTA_GRACE_MS = HOUR_MS;
/** Failing runs are mailed only once they have lasted this long: a short outage of ours clears by itself. */
export const FAILING_GRACE_MS = HOUR_MS;
const GRACE_MS: Partial<Record<NoticeKind, number>> = {
  'quota-reached': QUOTA_GRACE_MS,
  'sync-failing': FAILING_GRACE_MS,
};
/** The trial's end is announced this long before. */
export const TRIAL_WARNING_MS = 3 * DAY_MS;
/** No second mail of one kind within this time, whatever happened in between. */
export const NOTICE_QUIET_MS = DAY_MS;

/** The notice a sync problem is mailed as, if it is mailed at all. */
const noticeOfProblem = (code: SyncProblemCode): NoticeKind | undefined =>
  PROBLEM_KINDS.find((kind) => kind === code);

/** Kinds whose end is worth a mail to a user who asked for one (a trial's approaching end is not). */
const RESOLVABLE: ReadonlySet<NoticeKind> = new Set<NoticeKind>([
  ...PROBLEM_KINDS,
  'trial-ended',
  'payment-failed',
  'subscription-ended',
]);

export type NoticeInput = {
  problems: readonly { code: SyncProblemCode; since: Date }[];
  payment: { subscriptionStatus: SubscriptionStatus; validUntil: Date };
  /** What was mailed before, one entry per kind. */
  mailed: readonly NoticeRecord[];
  prefs: { mails: boolean; resolvedMails: boolean };
  now: Date;
};

export type NoticeRecord = {
  kind: NoticeKind;
  occurrence: Date;
  sentAt: Date;
  /** When the end of the mailed occurrence was seen; null while it holds. */
  endedAt: Date | null;
};

/**
 * A notice's occurrence began (mail it) or ended (`resolved`: recorded, and mailed only when `mail` is
 * true, to users who asked for that).
 */
export type DueNotice = { kind: NoticeKind; occurrence: Date; resolved: boolean; mail: boolean };

/** The notices that hold now, each with when its occurrence began. */
export function currentNotices(input: Pick<NoticeInput, 'problems' | 'payment' | 'now'>): DueNotice[] {
  const { problems, payment, now } = input;
  const notices: DueNotice[] = [];
  for (const problem of problems) {
    const kind = noticeOfProblem(problem.code);
    if (!kind) continue;
    if (now.getTime() - problem.since.getTime() < (GRACE_MS[kind] ?? 0)) continue;
    notices.push({ kind, occurrence: problem.since, resolved: false, mail: true });
  }
  const { subscriptionStatus: status, validUntil } = payment;
  const left = validUntil.getTime() - now.getTime();
  if (status === 'trial') {
    if (left <= 0) notices.push({ kind: 'trial-ended', occurrence: validUntil, resolved: false, mail: true });
    else if (left <= TRIAL_WARNING_MS)
      notices.push({ kind: 'trial-ending', occurrence: validUntil, resolved: false, mail: true });
  } else if (isIncomplete(status)) {
    notices.push({
      kind: left > 0 ? 'payment-failed' : 'subscription-ended',
      occurrence: validUntil,
      resolved: false,
      mail: true,
    });
  } else if (left <= 0) {
    notices.push({ kind: 'subscription-ended', occurrence: validUntil, resolved: false, mail: true });
  }
  return notices;
}

/**
 * What is due now. A notice is mailed once per occurrence, and not at all when a mail of its kind went
 * out within the last 24 hours (a problem that comes and goes is one mail a day at most); the end of a
 * mailed occurrence is recorded once, and mailed to users who asked for that. Nothing when the user
 * turned notice mails off.
 */
export function noticesDue(input: NoticeInput): DueNotice[] {
  if (!input.prefs.mails) return [];
  const now = input.now.getTime();
  const current = currentNotices(input);
  const mailed = new Map(input.mailed.map((record) => [record.kind, record]));
  const due: DueNotice[] = [];
  for (const notice of current) {
    const before = mailed.get(notice.kind);
    if (before && before.occurrence.getTime() === notice.occurrence.getTime()) continue;
    if (before && now - before.sentAt.getTime() < NOTICE_QUIET_MS) continue;
    due.push(notice);
  }
  const holding = new Set(current.map((notice) => notice.kind));
  for (const record of input.mailed) {
    if (holding.has(record.kind) || record.endedAt !== null) continue;
    const mail = input.prefs.resolvedMails && RESOLVABLE.has(record.kind);
    due.push({ kind: record.kind, occurrence: record.occurrence, resolved: true, mail });
  }
  return due;
}
