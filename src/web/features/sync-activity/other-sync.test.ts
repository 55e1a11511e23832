import { describe, expect, it } from 'vitest';
import { otherSyncText } from './other-sync.ts';

describe('otherSyncText', () => {
  const text = otherSyncText({ tool: 'todoist', seenAt: '2026-11-26T10:00:00.000Z' });

  it('names Todoist’s own calendar sync', () => {
    expect(text.title).toBe('Todoist’s own calendar sync writes here too');
    expect(text.message).toMatch(
      /^Todoist’s Google Calendar integration also puts your tasks into this calendar\./,
    );
  });

  it('says its events are left alone, and what a duplicate costs', () => {
    expect(text.message).toContain('Timeboxer leaves its events alone (they never become tasks)');
    expect(text.message).toContain('you may see tasks twice');
  });

  it('says where to turn it off, and the other way out', () => {
    expect(text.message).toContain('Integrations → Google Calendar');
    expect(text.message).toContain('choosing another calendar for Timeboxer in Calendar Settings');
  });
});
