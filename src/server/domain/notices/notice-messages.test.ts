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

  it('words the end of a problem as good news', () => {
    const solved = noticeMessage('reconnect-calendar', true, context);
    expect(solved.subject).toBe('Your sync is running again');
    expect(solved.text).toContain('Your calendar is connected again');
  });
});
