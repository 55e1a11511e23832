import { describe, expect, it } from 'vitest';
import { SYNC_PROBLEMS } from '#shared/api/sync.schema.ts';
import { problemAdvice } from './sync-problems.ts';

describe('problemAdvice', () => {
  it('has a title and a message for every problem code', () => {
    for (const code of SYNC_PROBLEMS) {
      const advice = problemAdvice(code, 'Google Calendar');
      expect(advice.title.length).toBeGreaterThan(0);
      expect(advice.message.length).toBeGreaterThan(0);
    }
  });

  it('sends a Todoist reconnect to the Todoist connect flow', () => {
    expect(problemAdvice('reconnect-todoist', null).action).toEqual({
      label: 'Reconnect Todoist',
      href: '/auth/todoist',
      external: true,
    });
  });

  it('sends a calendar reconnect to the connected provider', () => {
    expect(problemAdvice('reconnect-calendar', 'Google Calendar')).toMatchObject({
      title: 'Google Calendar needs to be connected again',
      action: { label: 'Reconnect Google Calendar', href: '/auth/google/calendar' },
    });
    expect(problemAdvice('reconnect-calendar', 'Microsoft')).toMatchObject({
      title: 'Microsoft 365 needs to be connected again',
      action: { label: 'Reconnect Microsoft 365', href: '/auth/microsoft' },
    });
    expect(problemAdvice('reconnect-calendar', null).action).toBeUndefined();
  });

  it('points a missing calendar at the Calendar Settings', () => {
    const advice = problemAdvice('calendar-missing', 'Microsoft');
    expect(advice.message).toMatch(/Choose another calendar in the Calendar Settings/);
    expect(advice.action?.href).toBe('#calendar-settings');
  });

  it('asks nothing when a quota was reached: sync resumes by itself', () => {
    const advice = problemAdvice('quota-reached', 'Google Calendar');
    expect(advice.severity).toBe('warning');
    expect(advice.message).toMatch(/resumes by itself/);
    expect(advice.action).toBeUndefined();
  });

  it('offers an upgrade on the profile when the subscription ended', () => {
    expect(problemAdvice('subscription-ended', null).action).toEqual({
      label: 'Upgrade',
      href: '/profile',
      external: false,
    });
  });
});
