import { describe, expect, it } from 'vitest';
import { providerBusyText } from './provider-busy.ts';

describe('providerBusyText', () => {
  const until = '2026-11-28T14:05:30.000Z';

  it('names the calendar provider whose limit holds the changes back', () => {
    expect(providerBusyText({ provider: 'google', until }, 'UTC').message).toMatch(/^Google Calendar limits/);
    expect(providerBusyText({ provider: 'microsoft', until }, 'UTC').message).toMatch(
      /^Microsoft 365 limits/,
    );
  });

  it('says the changes are kept, when they sync (in the page’s zone), and that nothing is to be done', () => {
    const text = providerBusyText({ provider: 'google', until }, 'Europe/Berlin', 'en-GB');
    expect(text.title).toBe('Sync is running behind');
    expect(text.message).toContain('Your changes are kept and sync by about 15:05;');
    expect(text.message).toContain('there is nothing you need to do');
  });
});
