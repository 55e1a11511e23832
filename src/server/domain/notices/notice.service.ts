import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.port.ts';
import { InvalidSignatureError, StateConflictError } from '../shared/domain-errors.ts';
import type { UserRepository } from '../users/user.repository.ts';
import type { Mailer } from './mailer.port.ts';
import type { NoticeRepository } from './notice.repository.ts';
import { noticeMessage } from './notice-messages.ts';
import { NOTICE_KINDS, type NoticeKind, noticesDue } from './notice-rules.ts';
import { unsubscribeToken, validUnsubscribeToken } from './unsubscribe-token.ts';

/** A notice mail as queued: its words are made when it is sent, from the user as they are then. */
export type NoticeMailJob = { userId: string; kind: string; occurrence: string; resolved: boolean };

export type NoticeServiceDeps = {
  notices: NoticeRepository;
  users: Pick<UserRepository, 'turnNoticeMailsOff' | 'findById'>;
  queue: { requestNoticeMail(mail: NoticeMailJob): Promise<void> };
  /** Null: no mail server configured; notices are still recorded, nothing is sent. */
  mailer: Mailer | null;
  appUrl: string;
  secret: string;
  clock: Clock;
  log: Logger;
};

export type NoticeService = ReturnType<typeof createNoticeService>;

/**
 * Tells users by e-mail when their sync stops or needs them (docs/product-rules.md §11 "Notices"). `check`
 * runs after the user's sync runs that may start or end one (`noticesMayChange` of sync/worker.ts) and
 * after payment changes, and `checkAll` with every reconcile (for
 * what only time brings: a quota problem an hour old, a trial's last days); each queues the mails due,
 * and the queue's worker `send`s them, with retries.
 */
export function createNoticeService(deps: NoticeServiceDeps) {
  const { notices, clock, log } = deps;

  async function check(userId: string): Promise<void> {
    const subject = await notices.subject(userId);
    if (!subject) return;
    const now = clock();
    for (const notice of noticesDue({ ...subject, now })) {
      // The record is claimed first, so a check running at the same time queues no second mail.
      const claimed = notice.resolved
        ? await notices.recordEnded(userId, notice.kind, now)
        : await notices.recordStarted(userId, notice.kind, notice.occurrence, now);
      if (!claimed || !notice.mail) continue;
      await deps.queue.requestNoticeMail({
        userId,
        kind: notice.kind,
        occurrence: notice.occurrence.toISOString(),
        resolved: notice.resolved,
      });
      log.info({ userId, kind: notice.kind, resolved: notice.resolved }, 'notice mail queued');
    }
  }

  return {
    check,

    async checkAll(): Promise<number> {
      const userIds = await notices.usersToCheck(clock());
      for (const userId of userIds) {
        await check(userId).catch((error: unknown) =>
          log.warn({ userId, err: error }, 'notice check failed; tried again with the next reconcile'),
        );
      }
      return userIds.length;
    },

    /**
     * A mail's "turn them off" link, signed for this user and link version: their notice mails stop,
     * unless they were switched on again after the link was mailed (the version moved on).
     */
    async turnOff(userId: string, linkVersion: number, token: string): Promise<void> {
      if (!validUnsubscribeToken(deps.secret, userId, linkVersion, token)) {
        throw new InvalidSignatureError('This link to turn notices off is not valid.');
      }
      if (await deps.users.turnNoticeMailsOff(userId, linkVersion, clock())) {
        log.info({ userId }, 'notice mails turned off from a mail');
        return;
      }
      // A user deleted since the mail gets no more mails anyway.
      if (!(await deps.users.findById(userId))) return;
      throw new StateConflictError(NOTICES_OFF_LINK_OUTDATED);
    },

    /** Sends one queued mail; throws (and the queue tries again later) when the mail server refuses. */
    async send(job: NoticeMailJob): Promise<'sent' | 'dropped'> {
      const kind = NOTICE_KINDS.find((each) => each === job.kind) as NoticeKind | undefined;
      const subject = await notices.subject(job.userId);
      // Gone, switched off meanwhile, or nowhere to send: the mail is dropped, not retried.
      if (!kind || !subject?.prefs.mails || !deps.mailer) return 'dropped';
      const message = noticeMessage(kind, job.resolved, {
        firstName: subject.firstName,
        dashboardUrl: `${deps.appUrl}/dashboard`,
        profileUrl: `${deps.appUrl}/profile`,
        unsubscribeUrl: unsubscribePageUrl(deps.appUrl, deps.secret, job.userId, subject.offLinkVersion),
        held: subject.held,
        accountsToReconnect: subject.accountsToReconnect,
      });
      const oneClick = `${deps.appUrl}/api/notices/off?${unsubscribeQuery(deps.secret, job.userId, subject.offLinkVersion)}`;
      await deps.mailer.send({
        to: subject.email,
        ...message,
        headers: {
          'List-Unsubscribe': `<${oneClick}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'Auto-Submitted': 'auto-generated',
        },
      });
      return 'sent';
    },
  };
}

export const NOTICES_OFF_LINK_OUTDATED =
  'This link is out of date: notice e-mails were turned on again after it was sent, so they stay on. You can turn them off in your profile.';

const unsubscribeQuery = (secret: string, userId: string, version: number) =>
  new URLSearchParams({
    u: userId,
    v: String(version),
    t: unsubscribeToken(secret, userId, version),
  }).toString();

/** The page a mail's "turn them off" link opens: one button, no sign-in. */
export const unsubscribePageUrl = (appUrl: string, secret: string, userId: string, version: number) =>
  `${appUrl}/notices/off?${unsubscribeQuery(secret, userId, version)}`;
