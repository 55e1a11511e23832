import { describe, expect, it } from 'vitest';
import { noticeMessage } from './notice-messages.ts';
import { NOTICE_KINDS } from './notice-rules.ts';

const context = {
  firstName: 'Ada <script>',
  dashboardUrl: 'https://app.example/dashboard',
  profileUrl: 'https://app.example/profile',
  unsubscribeUrl: 'https://app.example/notices/off?u=1&t=abc',
};

describe('notice mail words', () => {
  it.each(NOTICE_KINDS)('says what happened, what to do and where, with a way to stop them (%s)', (kind) => {
    const message = noticeMessage(kind, false, context);
    expect(message.subject.length).toBeGreaterThan(10);
    expect(message.text).toContain(context.unsubscribeUrl);
    expect(message.text).toMatch(/https:\/\/app\.example\/(dashboard|profile)/);
    expect(message.html).toContain('href="https://app.example/notices/off?u=1&amp;t=abc"');
    // The user's name is text, never markup.
    expect(message.html).toContain('Ada &lt;script&gt;');
    expect(message.html).not.toContain('<script>');
  });

  it('sends payment notices to the profile and sync notices to the dashboard', () => {
    expect(noticeMessage('trial-ending', false, context).text).toContain(
      'Upgrade: https://app.example/profile',
    );
    expect(noticeMessage('reconnect-todoist', false, context).text).toContain(
      'Connect Todoist: https://app.example/dashboard',
    );
  });

  it('names the added calendar accounts Plan my day cannot read, by address and provider', () => {
    const one = noticeMessage('reconnect-other-calendar', false, {
      ...context,
      accountsToReconnect: [{ provider: 'microsoft', email: 'ada@work.example' }],
    });
    expect(one.subject).toBe('Plan my day cannot see the meetings in ada@work.example');
    expect(one.text).toContain(
      'Microsoft 365 no longer accepts Timeboxer’s access to your account ada@work.example',
    );
    expect(one.text).toContain('Your sync goes on.');
    const two = noticeMessage('reconnect-other-calendar', false, {
      ...context,
      accountsToReconnect: [
        { provider: 'microsoft', email: 'ada@work.example' },
        { provider: 'google', email: null },
      ],
    });
    expect(two.subject).toBe('Plan my day cannot see the meetings of 2 of your calendar accounts');
    expect(two.text).toContain('ada@work.example (Microsoft 365), your Google Calendar account.');
    expect(two.html).toContain('ada@work.example (Microsoft 365), your Google Calendar account.');
    // Connected again before the mail went: it says what happened without a name.
    expect(
      noticeMessage('reconnect-other-calendar', false, { ...context, accountsToReconnect: [] }).subject,
    ).toBe('Plan my day cannot see the meetings of one of your calendar accounts');
  });

  it('names the count and the cause of held removals, and only them', () => {
    const held = {
      events: 6,
      tasks: 0,
      cause: { kind: 'label-removed', label: '30Minutes', deleted: true },
    } as const;
    const message = noticeMessage('removals-held', false, { ...context, held });
    expect(message.subject).toBe('Timeboxer held back removing 6 events');
    expect(message.text).toContain('6 events held back after the label @30Minutes was deleted in Todoist');
    expect(message.html).toContain('6 events held back after the label @30Minutes was deleted in Todoist');
    // Settled before the mail went: no count to name.
    expect(noticeMessage('removals-held', false, { ...context, held: null }).subject).toBe(
      'Timeboxer held back removals for your decision',
    );
  });

  it('words the end of a problem as good news', () => {
    const solved = noticeMessage('reconnect-calendar', true, context);
    expect(solved.subject).toBe('Your sync is running again');
    expect(solved.text).toContain('Your calendar is connected again');
  });
});
