import { type HeldCause, heldRemovalsTitle, heldSentence } from '#shared/sync/held-removals.ts';
import { type CalendarProviderKey, PROVIDER_NAMES } from '#shared/sync/provider-names.ts';
import type { NoticeKind } from './notice-rules.ts';

/**
 * The words of each notice mail: what happened and the one thing to do, with a link to the dashboard.
 * Plain text plus simple HTML; never a task's or event's text (the app does not keep any).
 */
export type NoticeMessage = { subject: string; text: string; html: string };

type Words = { subject: string; happened: string; todo: string; action: string };

const STARTED: Record<NoticeKind, Words> = {
  'reconnect-todoist': {
    subject: 'Your sync has stopped: connect Todoist again',
    happened:
      'Timeboxer can no longer reach your Todoist account (the access was revoked or has expired), so your tasks and calendar are not being synced.',
    todo: 'Connect Todoist again on your dashboard; the sync picks up where it stopped.',
    action: 'Connect Todoist',
  },
  'reconnect-calendar': {
    subject: 'Your sync has stopped: connect your calendar again',
    happened:
      'Timeboxer can no longer reach your calendar (the access was revoked or has expired), so your tasks and calendar are not being synced.',
    todo: 'Connect your calendar again on your dashboard; the sync picks up where it stopped.',
    action: 'Connect your calendar',
  },
  'calendar-missing': {
    subject: 'Your sync has stopped: choose a calendar',
    happened:
      'The calendar Timeboxer syncs with is gone (deleted, or no longer shared with you) or read only (its owner no longer lets you change it), so nothing is being synced.',
    todo: 'Open your Calendar Settings and choose the calendar to sync with, or ask the calendar’s owner for access again.',
    action: 'Your dashboard',
  },
  'quota-reached': {
    subject: 'Your sync is waiting on a provider limit',
    happened:
      'For over an hour, Todoist or your calendar has been refusing more requests for your account, so changes are waiting to be synced.',
    todo: 'Nothing is lost and the sync catches up by itself; look at your dashboard if it does not within a few hours.',
    action: 'Open your dashboard',
  },
  'removals-held': {
    subject: 'Timeboxer held back removals for your decision',
    happened:
      'A change would have removed several of your synced tasks or events at once, so Timeboxer held those removals back. Nothing has been removed.',
    todo: 'Choose on your dashboard whether to remove them or keep them.',
    action: 'Choose on your dashboard',
  },
  'sync-failing': {
    subject: 'Your sync keeps failing',
    happened:
      'For over an hour, every attempt to sync your tasks and calendar has failed with an error on our side, so your changes are waiting to be synced.',
    todo: 'Nothing is lost, and we keep trying. If it goes on, write to us from the contact page and we will look into it.',
    action: 'Open your dashboard',
  },
  'reconnect-other-calendar': {
    subject: 'Plan my day cannot see the meetings of one of your calendar accounts',
    happened:
      'One of the calendar accounts you added no longer accepts Timeboxer’s access (it was revoked or has expired), so Plan my day cannot see its meetings and may place a task over one of them. Your sync goes on.',
    todo: 'Connect that account again in the Calendar Settings of your dashboard (Connect again); Plan my day counts its meetings from then on.',
    action: 'Open your dashboard',
  },
  'trial-ending': {
    subject: 'Your Timeboxer trial ends in 3 days',
    happened: 'Your free trial ends in 3 days; then the sync stops.',
    todo: 'Upgrade on your profile to keep it running: $3 a month or $24 a year.',
    action: 'Upgrade',
  },
  'trial-ended': {
    subject: 'Your Timeboxer trial has ended: your sync has stopped',
    happened: 'Your free trial has ended, so your tasks and calendar are no longer being synced.',
    todo: 'Upgrade on your profile to start the sync again: $3 a month or $24 a year.',
    action: 'Upgrade',
  },
  'payment-failed': {
    subject: 'Your payment for Timeboxer failed',
    happened:
      'The last payment for your subscription did not go through. The sync keeps running for now and stops when the paid period ends.',
    todo: 'Update your payment method on your profile (Manage your Subscription).',
    action: 'Manage your subscription',
  },
  'subscription-ended': {
    subject: 'Your Timeboxer subscription has ended: your sync has stopped',
    happened: 'Your subscription has ended, so your tasks and calendar are no longer being synced.',
    todo: 'Subscribe again on your profile to start the sync again.',
    action: 'Open your profile',
  },
};

const RESOLVED: Record<NoticeKind, string> = {
  'reconnect-todoist': 'Todoist is connected again, and your sync is running.',
  'reconnect-calendar': 'Your calendar is connected again, and your sync is running.',
  'calendar-missing': 'A calendar is chosen again, and your sync is running.',
  'quota-reached': 'The provider limit has passed, and your changes are being synced again.',
  'removals-held': 'The held-back removals have been settled.',
  'sync-failing': 'Your sync is running again, and your changes are being synced.',
  'reconnect-other-calendar':
    'Plan my day no longer leaves out the meetings of a calendar account: it was connected again or removed, or Plan my day no longer counts it.',
  'trial-ending': 'Your trial is over.',
  'trial-ended': 'Your subscription is active, and your sync is running again.',
  'payment-failed': 'Your payment went through; your subscription is active.',
  'subscription-ended': 'Your subscription is active again, and your sync is running.',
};

const RESOLVED_SUBJECT: Partial<Record<NoticeKind, string>> = {
  'quota-reached': 'Your changes are syncing again',
  'removals-held': 'The held-back removals are settled',
  'sync-failing': 'Your sync is running again',
  'reconnect-other-calendar': 'Plan my day sees your calendar accounts again',
  'payment-failed': 'Your payment went through',
  'trial-ending': 'Your trial is over',
};

export type MessageContext = {
  firstName: string;
  /** The dashboard, or the profile for payment notices. */
  dashboardUrl: string;
  profileUrl: string;
  unsubscribeUrl: string;
  /** The removals held back now, for their mail: the counts and the cause (never a title). */
  held?: { events: number; tasks: number; cause: HeldCause | null } | null;
  /** The added calendar accounts Plan my day cannot read now, for their mail. */
  accountsToReconnect?: readonly { provider: CalendarProviderKey; email: string | null }[];
};

/** "ana@work.example (Microsoft 365)", or "your Microsoft 365 account" before its address was read. */
const accountWords = (account: { provider: CalendarProviderKey; email: string | null }) =>
  account.email
    ? `${account.email} (${PROVIDER_NAMES[account.provider]})`
    : `your ${PROVIDER_NAMES[account.provider]} account`;

/** The mail names the accounts: "Plan my day cannot see the meetings in ana@work.example". */
function accountsWords(accounts: NonNullable<MessageContext['accountsToReconnect']>): Words {
  const started = STARTED['reconnect-other-calendar'];
  const [first] = accounts;
  if (!first) return started;
  if (accounts.length === 1) {
    return {
      ...started,
      subject: `Plan my day cannot see the meetings in ${first.email ?? `your ${PROVIDER_NAMES[first.provider]} account`}`,
      happened: `${PROVIDER_NAMES[first.provider]} no longer accepts Timeboxer’s access to ${first.email ? `your account ${first.email}` : 'your account there'} (it was revoked or has expired), so Plan my day cannot see that account’s meetings and may place a task over one of them. Your sync goes on.`,
      todo: 'Connect the account again in the Calendar Settings of your dashboard (Connect again beside it); Plan my day counts its meetings from then on.',
    };
  }
  return {
    ...started,
    subject: `Plan my day cannot see the meetings of ${accounts.length} of your calendar accounts`,
    happened: `These calendar accounts no longer accept Timeboxer’s access (it was revoked or has expired): ${accounts.map(accountWords).join(', ')}. Plan my day cannot see their meetings and may place a task over one of them. Your sync goes on.`,
    todo: 'Connect each of them again in the Calendar Settings of your dashboard (Connect again beside each); Plan my day counts their meetings from then on.',
  };
}

/** The held-removals mail names how many and why: "6 events held back after the label @30Minutes was deleted in Todoist". */
function heldWords(held: NonNullable<MessageContext['held']>): Words {
  return {
    ...STARTED['removals-held'],
    subject: heldRemovalsTitle(held),
    happened: `${heldSentence(held)} So many removals at once usually come from a change around the sync, so Timeboxer asks first. Nothing has been removed.`,
    todo: 'Your dashboard lists each of them by name: choose there whether to remove them or keep them.',
  };
}

const PAYMENT: ReadonlySet<NoticeKind> = new Set([
  'trial-ending',
  'trial-ended',
  'payment-failed',
  'subscription-ended',
]);

export function noticeMessage(kind: NoticeKind, resolved: boolean, context: MessageContext): NoticeMessage {
  const link = PAYMENT.has(kind) && !resolved ? context.profileUrl : context.dashboardUrl;
  const greeting = `Hi ${context.firstName},`;
  const footer = `You get this mail because notices are on in your Timeboxer profile. Turn them off: ${context.unsubscribeUrl}`;
  if (resolved) {
    const subject = RESOLVED_SUBJECT[kind] ?? 'Your sync is running again';
    const body = RESOLVED[kind];
    return {
      subject,
      text: [greeting, '', body, '', `Your dashboard: ${link}`, '', '--', footer, ''].join('\n'),
      html: page(greeting, [body], { label: 'Open your dashboard', url: link }, context.unsubscribeUrl),
    };
  }
  const words =
    kind === 'removals-held' && context.held
      ? heldWords(context.held)
      : kind === 'reconnect-other-calendar' && context.accountsToReconnect
        ? accountsWords(context.accountsToReconnect)
        : STARTED[kind];
  return {
    subject: words.subject,
    text: [
      greeting,
      '',
      words.happened,
      '',
      `${words.todo}`,
      `${words.action}: ${link}`,
      '',
      '--',
      footer,
      '',
    ].join('\n'),
    html: page(
      greeting,
      [words.happened, words.todo],
      { label: words.action, url: link },
      context.unsubscribeUrl,
    ),
  };
}

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function page(
  greeting: string,
  paragraphs: string[],
  button: { label: string; url: string },
  unsubscribeUrl: string,
) {
  const p = (text: string) => `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
  return [
    '<!doctype html><html lang="en"><body style="margin:0;padding:24px;background:#f6f7f9">',
    '<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;font:15px/1.5 -apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1a1b1e">',
    p(greeting),
    ...paragraphs.map(p),
    `<p style="margin:24px 0"><a href="${escapeHtml(button.url)}" style="background:#228be6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(button.label)}</a></p>`,
    `<p style="margin:24px 0 0;font-size:12px;color:#868e96">You get this mail because notices are on in your Timeboxer profile. <a href="${escapeHtml(unsubscribeUrl)}" style="color:#868e96">Turn them off</a>.</p>`,
    '</div></body></html>',
  ].join('');
}
