import { describe, expect, it } from 'vitest';
import type { CalendarAccount } from '#shared/api/current-user.schema.ts';
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

  const account = (overrides: Partial<CalendarAccount>): CalendarAccount => ({
    id: 'a1',
    provider: 'microsoft',
    email: 'ada@work.example',
    sync: false,
    needsReconnect: true,
    calendars: [{ id: 'c1', name: 'Calendar', primary: true, canWrite: true }],
    ...overrides,
  });

  it('names the sync’s account in a calendar reconnect', () => {
    const sync = account({ provider: 'google', email: 'ada@example.com', sync: true });
    expect(problemAdvice('reconnect-calendar', 'Google Calendar', [sync]).message).toBe(
      'Google Calendar no longer accepts our access to ada@example.com, so nothing is synced. Connect it again to resume.',
    );
  });

  it('names the added account Plan my day cannot read, and connects that one again', () => {
    const sync = account({
      id: 's',
      provider: 'google',
      email: 'ada@example.com',
      sync: true,
      needsReconnect: false,
    });
    expect(problemAdvice('reconnect-other-calendar', 'Google Calendar', [sync, account({})])).toEqual({
      title: 'Plan my day can’t see the meetings in ada@work.example',
      message:
        'Microsoft 365 no longer accepts our access to ada@work.example, so Plan my day may place a task over one of its meetings. Your sync goes on. Connect the account again to have its meetings counted.',
      severity: 'warning',
      action: { label: 'Connect it again', href: '/auth/microsoft?another=1', external: true },
    });
    const two = problemAdvice('reconnect-other-calendar', 'Google Calendar', [
      sync,
      account({}),
      account({ id: 'a2', provider: 'google', email: 'ada@home.example' }),
    ]);
    expect(two.title).toBe('Plan my day can’t see the meetings of 2 calendar accounts');
    expect(two.message).toContain(
      'ada@work.example (Microsoft 365), ada@home.example (Google Calendar) no longer accept',
    );
    expect(two.action?.href).toBe('#calendar-settings');
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
