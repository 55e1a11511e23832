import { describe, expect, it } from 'vitest';
import { leftBehindText } from './left-behind.ts';

describe('leftBehindText', () => {
  it('says how many events stayed in which calendar of which provider', () => {
    const text = leftBehindText({
      provider: 'google',
      calendarId: 'ada@example.com',
      calendarName: 'Work',
      events: 12,
      at: '2026-11-26T10:00:00.000Z',
      why: 'disconnected',
    });
    expect(text.title).toBe('12 events stayed in your previous calendar');
    expect(text.message).toContain('“Work” in Google Calendar');
    expect(text.message).toContain('delete the old ones there');
  });

  it('names the calendar by its id when its name is unknown, and speaks of one event', () => {
    const text = leftBehindText({
      provider: 'microsoft',
      calendarId: 'AAMkAD',
      calendarName: null,
      events: 1,
      at: '2026-11-26T10:00:00.000Z',
      why: 'disconnected',
    });
    expect(text.title).toBe('1 event stayed in your previous calendar');
    expect(text.message).toContain('“AAMkAD” in Microsoft 365');
    expect(text.message).toContain('so it was left there');
  });

  it('says when they stayed because the account can now only read that calendar', () => {
    const text = leftBehindText({
      provider: 'google',
      calendarId: 'team@example.com',
      calendarName: 'Team',
      events: 2,
      at: '2026-11-26T10:00:00.000Z',
      why: 'read-only',
    });
    expect(text.message).toContain(
      '“Team” in Google Calendar, which you can now only read, so they were left there',
    );
    expect(text.message).toContain("ask the calendar's owner to delete the old ones");
    expect(text.message).not.toContain('no longer connected');
  });
});
