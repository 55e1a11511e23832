import { describe, expect, it } from 'vitest';
import { type NoticeInput, noticesDue } from './notice-rules.ts';

const NOW = new Date('2026-07-15T12:00:00Z');
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

const input = (overrides: Partial<NoticeInput> = {}): NoticeInput => ({
  problems: [],
  payment: { subscriptionStatus: 'active', validUntil: at(30 * 24 * HOUR) },
  mailed: [],
  prefs: { mails: true, resolvedMails: false },
  now: NOW,
  ...overrides,
});

describe('notice mails due', () => {
  it('mails a problem that stops the sync once, with the time it began', () => {
    const since = at(-5 * 60_000);
    expect(noticesDue(input({ problems: [{ code: 'reconnect-todoist', since }] }))).toEqual([
      { kind: 'reconnect-todoist', occurrence: since, resolved: false, mail: true },
    ]);
    // Mailed: the same occurrence is never mailed again, however many runs see it.
    const mailed = [{ kind: 'reconnect-todoist' as const, occurrence: since, sentAt: NOW, endedAt: null }];
    expect(
      noticesDue(input({ problems: [{ code: 'reconnect-todoist', since }], mailed, now: at(3 * 24 * HOUR) })),
    ).toEqual([]);
  });

  it('mails a quota problem only once it has lasted an hour', () => {
    const recent = input({ problems: [{ code: 'quota-reached', since: at(-59 * 60_000) }] });
    expect(noticesDue(recent)).toEqual([]);
    const lasting = input({ problems: [{ code: 'quota-reached', since: at(-61 * 60_000) }] });
    expect(noticesDue(lasting).map((notice) => notice.kind)).toEqual(['quota-reached']);
  });

  it('mails runs that keep failing only once they have lasted an hour, and their end to those who asked', () => {
    const recent = input({ problems: [{ code: 'sync-failing', since: at(-59 * 60_000) }] });
    expect(noticesDue(recent)).toEqual([]);
    const since = at(-61 * 60_000);
    expect(noticesDue(input({ problems: [{ code: 'sync-failing', since }] }))).toEqual([
      { kind: 'sync-failing', occurrence: since, resolved: false, mail: true },
    ]);
    const mailed = [{ kind: 'sync-failing' as const, occurrence: since, sentAt: NOW, endedAt: null }];
    const ended = noticesDue(input({ mailed, prefs: { mails: true, resolvedMails: true }, now: at(HOUR) }));
    expect(ended).toEqual([{ kind: 'sync-failing', occurrence: since, resolved: true, mail: true }]);
  });

  it('sends no second mail of a kind within 24 hours, even for a new occurrence', () => {
    const mailed = [
      {
        kind: 'removals-held' as const,
        occurrence: at(-3 * HOUR),
        sentAt: at(-3 * HOUR),
        endedAt: at(-2 * HOUR),
      },
    ];
    const again = { problems: [{ code: 'removals-held' as const, since: at(-HOUR) }], mailed };
    expect(noticesDue(input(again))).toEqual([]);
    expect(noticesDue(input({ ...again, now: at(22 * HOUR) })).map((notice) => notice.kind)).toEqual([
      'removals-held',
    ]);
  });

  it('announces the trial’s end three days before, and its end', () => {
    const ending = input({ payment: { subscriptionStatus: 'trial', validUntil: at(71 * HOUR) } });
    expect(noticesDue(ending)).toEqual([
      { kind: 'trial-ending', occurrence: at(71 * HOUR), resolved: false, mail: true },
    ]);
    expect(
      noticesDue(input({ payment: { subscriptionStatus: 'trial', validUntil: at(73 * HOUR) } })),
    ).toEqual([]);
    const ended = input({ payment: { subscriptionStatus: 'trial', validUntil: at(-HOUR) } });
    expect(noticesDue(ended).map((notice) => notice.kind)).toEqual(['trial-ended']);
  });

  it('tells of a failed payment while the period runs, and of the subscription’s end after', () => {
    const failing = input({ payment: { subscriptionStatus: 'past_due', validUntil: at(5 * 24 * HOUR) } });
    expect(noticesDue(failing).map((notice) => notice.kind)).toEqual(['payment-failed']);
    const over = input({ payment: { subscriptionStatus: 'unpaid', validUntil: at(-HOUR) } });
    expect(noticesDue(over).map((notice) => notice.kind)).toEqual(['subscription-ended']);
    const canceled = input({ payment: { subscriptionStatus: 'canceled', validUntil: at(-HOUR) } });
    expect(noticesDue(canceled).map((notice) => notice.kind)).toEqual(['subscription-ended']);
  });

  it('records a mailed problem’s end, and mails it only to users who asked for that', () => {
    const mailed = [
      { kind: 'reconnect-calendar' as const, occurrence: at(-HOUR), sentAt: at(-HOUR), endedAt: null },
    ];
    expect(noticesDue(input({ mailed }))).toEqual([
      { kind: 'reconnect-calendar', occurrence: at(-HOUR), resolved: true, mail: false },
    ]);
    expect(noticesDue(input({ mailed, prefs: { mails: true, resolvedMails: true } }))).toEqual([
      { kind: 'reconnect-calendar', occurrence: at(-HOUR), resolved: true, mail: true },
    ]);
    // A trial's approaching end is over when the trial is; that is not news worth a mail.
    const trial = [{ kind: 'trial-ending' as const, occurrence: NOW, sentAt: at(-HOUR), endedAt: null }];
    expect(noticesDue(input({ mailed: trial, prefs: { mails: true, resolvedMails: true } }))).toEqual([
      { kind: 'trial-ending', occurrence: NOW, resolved: true, mail: false },
    ]);
  });

  it('mails nothing, and records nothing, when the user turned notice mails off', () => {
    const off = input({
      prefs: { mails: false, resolvedMails: true },
      problems: [{ code: 'reconnect-todoist', since: NOW }],
      payment: { subscriptionStatus: 'trial', validUntil: at(-HOUR) },
    });
    expect(noticesDue(off)).toEqual([]);
  });

  it('leaves out problems that do not stop the sync or are told elsewhere', () => {
    expect(noticesDue(input({ problems: [{ code: 'subscription-ended', since: NOW }] }))).toEqual([]);
  });
});
