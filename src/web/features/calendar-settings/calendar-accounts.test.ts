import { describe, expect, it } from 'vitest';
import type { CalendarAccount } from '#shared/api/current-user.schema.ts';
import { accountName, calendarList, removalConsequence, syncSwitchConsequence } from './calendar-accounts.ts';

const account = (overrides: Partial<CalendarAccount>): CalendarAccount => ({
  id: '00000000-0000-4000-8000-000000000001',
  provider: 'google',
  email: 'ada@example.com',
  sync: true,
  needsReconnect: false,
  calendars: [],
  ...overrides,
});

describe('calendar accounts as the settings card names them', () => {
  it('names an account by its address, else by its provider', () => {
    expect(accountName(account({}))).toBe('ada@example.com');
    expect(accountName(account({ email: null, provider: 'microsoft' }))).toBe('your Microsoft 365 account');
  });

  it('lists the calendars with the main and read-only ones marked', () => {
    expect(
      calendarList(
        account({
          calendars: [
            { id: 'a', name: 'Work', primary: true, canWrite: true },
            { id: 'b', name: 'Team', primary: false, canWrite: false },
          ],
        }),
      ),
    ).toBe('Work (main), Team (read only)');
    expect(calendarList(account({}))).toBe('No calendars read yet');
  });

  it('says what removing does: an added account alone, the sync’s stops the sync and names the next', () => {
    const sync = account({});
    const added = account({
      id: '00000000-0000-4000-8000-000000000002',
      sync: false,
      email: 'ada@work.example',
    });
    expect(removalConsequence(added, [sync, added])).toMatch(/Your sync and its events stay as they are/);
    expect(removalConsequence(sync, [sync, added])).toBe(
      'This is the account Timeboxer syncs with. All your synchronisations will stop working. ada@work.example takes its place: choose one of its calendars to sync again.',
    );
    expect(removalConsequence(sync, [sync])).not.toMatch(/takes its place/);
  });

  it('says what syncing with an added account does: both stay, the old one’s events stay, sync waits for a calendar', () => {
    const sync = account({});
    const added = account({
      id: '00000000-0000-4000-8000-000000000002',
      sync: false,
      email: 'ada@work.example',
    });
    expect(syncSwitchConsequence(added, [sync, added], true)).toEqual([
      'Timeboxer will sync with ada@work.example. Choose one of its calendars, then switch sync on again.',
      'Sync switches off until then. The events already synced stay in ada@example.com, not synced meanwhile; your timeboxed tasks get new events in the calendar you choose. Sync with ada@example.com again later and they are synced again, none made twice.',
      'ada@example.com stays connected: Plan my day counts its meetings as busy.',
    ]);
    expect(syncSwitchConsequence(added, [sync, added], false)[1]).toBe(
      'The events already synced stay in ada@example.com, not synced meanwhile. Sync with ada@example.com again later and they are synced again, none made twice.',
    );
  });
});
