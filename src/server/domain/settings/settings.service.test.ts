import { describe, expect, it } from 'vitest';
import { failure } from '#server/test/refusal.ts';
import { SYNC_ALL_TASKS } from '#shared/settings/constants.ts';
import { MESSAGES } from '#shared/settings/settings.schema.ts';
import type { IntegrationProvider } from '../integrations/integration-providers.port.ts';
import {
  InvalidValueError,
  NotFoundError,
  PlanRequiredError,
  StateConflictError,
} from '../shared/domain-errors.ts';
import { fakeClock } from '../testing/fake-clock.ts';
import { type InMemoryIntegrations, inMemoryIntegrations } from '../testing/in-memory-integrations.ts';
import { calendarRow, inMemorySettings, todoRow } from '../testing/in-memory-settings.ts';
import { inMemoryUsers, userRow } from '../testing/in-memory-users.ts';
import type { SettingsRepository } from './settings.repository.ts';
import { createSettingsService } from './settings.service.ts';

const USER = 'user-1';
const LATER = '2026-03-02T10:30:00.000Z';

async function connect(integrations: InMemoryIntegrations, provider: IntegrationProvider) {
  await integrations.connect(
    {
      userId: USER,
      kind: provider === 'todoist' ? 'todoist' : 'calendar',
      provider,
      accountId: null,
      accessTokenEncrypted: 'v1.test.sealed',
      refreshTokenEncrypted: null,
      keyId: 'test',
      expiresAt: null,
    },
    new Date('2026-03-01T00:00:00.000Z'),
  );
}

/** A user with Todoist (Free unless said) and, if named, a calendar provider; the clock then moves on. */
async function setup(
  options: { todoist?: boolean; calendar?: 'google' | 'microsoft'; accountType?: string } = {},
) {
  const clock = fakeClock();
  const integrations = inMemoryIntegrations();
  const settings = inMemorySettings(integrations);
  const users = inMemoryUsers(userRow({ id: USER }));
  if (options.todoist ?? true) {
    await connect(integrations, 'todoist');
    settings.todo.set(
      USER,
      todoRow(USER, {
        accountType: options.accountType ?? 'Free',
        labels: [{ id: 'l1', name: 'deep', color: 'berry_red', item_order: 1 }],
      }),
    );
  }
  if (options.calendar) {
    await connect(integrations, options.calendar);
    settings.calendar.set(
      USER,
      calendarRow(USER, {
        calendars: [{ id: 'work', name: 'Work', color: null, timeZone: 'Europe/Berlin' }],
        categories: [{ id: 'c1', displayName: 'Focus', color: 'preset0' }],
      }),
    );
  }
  clock.set(LATER);
  const requested: string[] = [];
  const syncs = { request: async (userId: string) => void requested.push(userId) };
  const service = createSettingsService({ settings, users, syncs, clock });
  return { service, settings, users, integrations, clock, requested };
}

describe('settings service: timebox settings', () => {
  it('keeps the id of the Todoist label a timebox names, and follows the label when it is renamed', async () => {
    const { service, settings } = await setup();
    await service.addTimebox(USER, 'Deep', 45);
    expect(settings.timeboxes.map((row) => [row.label, row.labelId])).toEqual([['Deep', 'l1']]);

    await settings.saveTodoistLabels(
      USER,
      [{ id: 'l1', name: 'Focus', color: 'berry_red', item_order: 1 }],
      new Date(LATER),
    );
    expect(settings.timeboxes.map((row) => [row.label, row.labelId])).toEqual([['Focus', 'l1']]);

    // Deleted in Todoist: the setting keeps its name (the warning row) and forgets the id.
    await settings.saveTodoistLabels(USER, [], new Date(LATER));
    expect(settings.timeboxes.map((row) => [row.label, row.labelId])).toEqual([['Focus', null]]);
  });

  it('adds a timebox, stamped with the clock', async () => {
    const { service, settings } = await setup();
    await service.addTimebox(USER, '30Minutes', 30);
    expect(settings.timeboxes).toEqual([
      { userId: USER, label: '30Minutes', labelId: null, duration: 30, createdAt: new Date(LATER) },
    ]);
  });

  it('refuses a timebox before Todoist is connected, and writes nothing', async () => {
    const { service, settings } = await setup({ todoist: false });
    const error = await failure(service.addTimebox(USER, 'Focus', 25));
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toHaveProperty('message', 'Please connect Todoist before adding timebox settings.');
    expect(settings.timeboxes).toEqual([]);
  });

  it('refuses a timebox while the Todoist account has not been read yet', async () => {
    const { service, settings } = await setup();
    settings.todo.set(USER, todoRow(USER, { todoistUserId: null }));
    expect(await failure(service.addTimebox(USER, 'Focus', 25))).toBeInstanceOf(StateConflictError);
    expect(settings.timeboxes).toEqual([]);
  });

  it('refuses a timebox while task durations are active', async () => {
    const { service, settings } = await setup({ accountType: 'Premium' });
    settings.todo.set(USER, todoRow(USER, { accountType: 'Premium', taskDurationActive: true }));
    const error = await failure(service.addTimebox(USER, 'Focus', 25));
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toHaveProperty('message', 'Timebox settings are paused while task durations are active.');
  });

  it('refuses a label that exists in another letter case, naming the label field', async () => {
    const { service, settings } = await setup();
    await service.addTimebox(USER, 'Focus', 25);
    const error = await failure(service.addTimebox(USER, 'FOCUS', 50));
    expect(error).toBeInstanceOf(InvalidValueError);
    expect(error).toMatchObject({ field: 'label', message: MESSAGES.labelDuplicate });
    expect(settings.timeboxes.map((row) => [row.label, row.duration])).toEqual([['Focus', 25]]);
  });

  it('answers a duplicate that slipped past the check (two requests at once) with the same message', async () => {
    const { settings, users, clock } = await setup();
    // Another request inserts the same label between the check and the insert.
    const racing: SettingsRepository = {
      ...settings,
      timeboxLabels: async () => [],
      addTimebox: async (userId, _label, duration, now) =>
        settings
          .addTimebox(userId, { label: 'focus', labelId: null }, duration, now)
          .then(() => settings.addTimebox(userId, { label: 'Focus', labelId: null }, duration, now)),
    };
    const service = createSettingsService({
      settings: racing,
      users,
      syncs: { request: async () => {} },
      clock,
    });
    const error = await failure(service.addTimebox(USER, 'Focus', 25));
    expect(error).toBeInstanceOf(InvalidValueError);
    expect(error).toMatchObject({ field: 'label', message: MESSAGES.labelDuplicate });
  });

  it('edits a timebox, also when only the letter case of its label changes', async () => {
    const { service, settings } = await setup();
    await service.addTimebox(USER, 'Focus', 25);
    await service.addTimebox(USER, 'Meeting', 60);
    await service.editTimebox(USER, 'focus', 'FOCUS', 45);
    expect(settings.timeboxes.map((row) => [row.label, row.duration])).toEqual([
      ['FOCUS', 45],
      ['Meeting', 60],
    ]);
  });

  it('refuses to rename a timebox to another one’s label', async () => {
    const { service, settings } = await setup();
    await service.addTimebox(USER, 'Focus', 25);
    await service.addTimebox(USER, 'Meeting', 60);
    const error = await failure(service.editTimebox(USER, 'Focus', 'meeting', 25));
    expect(error).toMatchObject({ field: 'label', message: MESSAGES.labelDuplicate });
    expect(settings.timeboxes.map((row) => row.label)).toEqual(['Focus', 'Meeting']);
  });

  it('answers not found for an edit or a delete of a label the user does not have', async () => {
    const { service } = await setup();
    const edit = await failure(service.editTimebox(USER, 'Nope', 'Other', 25));
    expect(edit).toBeInstanceOf(NotFoundError);
    expect(edit).toHaveProperty('message', 'No timebox setting has the label Nope.');
    expect(await failure(service.deleteTimebox(USER, 'Nope'))).toBeInstanceOf(NotFoundError);
  });

  it('deletes a timebox by its label in any letter case', async () => {
    const { service, settings } = await setup();
    await service.addTimebox(USER, 'Focus', 25);
    await service.deleteTimebox(USER, 'FOCUS');
    expect(settings.timeboxes).toEqual([]);
  });
});

describe('settings service: task durations', () => {
  it('switches task durations on for a Premium account', async () => {
    const { service, settings } = await setup({ accountType: 'Premium' });
    await service.setTaskDurationActive(USER, true);
    expect(settings.todo.get(USER)).toMatchObject({ taskDurationActive: true, updatedAt: new Date(LATER) });
  });

  it('refuses task durations to a Free account', async () => {
    const { service, settings } = await setup({ accountType: 'Free' });
    const error = await failure(service.setTaskDurationActive(USER, true));
    expect(error).toBeInstanceOf(PlanRequiredError);
    expect(error).toHaveProperty('message', 'Requires Todoist Premium or Business');
    expect(settings.todo.get(USER)?.taskDurationActive).toBe(false);
  });

  it('always lets task durations be switched off, even without Todoist', async () => {
    const { service, settings } = await setup({ todoist: false });
    await service.setTaskDurationActive(USER, false);
    expect(settings.todo.get(USER)).toMatchObject({ taskDurationActive: false, updatedAt: new Date(LATER) });
  });

  it('takes one of the Todoist labels, or every task, as the task duration label', async () => {
    const { service, settings } = await setup({ accountType: 'Business' });
    await service.setTaskDurationLabel(USER, 'deep');
    expect(settings.todo.get(USER)).toMatchObject({ taskDurationLabel: 'deep', taskDurationLabelId: 'l1' });
    // Renamed in Todoist (a sync run's read of the changes): the choice follows the label.
    const renamed = { id: 'l1', name: 'focus', color: 'berry_red', item_order: 1, deleted: false };
    const followed = await settings.applyLabelChanges(USER, [renamed], false, new Date(LATER));
    expect(followed.taskDurationLabel).toEqual({ label: 'focus', labelId: 'l1' });
    expect(settings.todo.get(USER)).toMatchObject({ taskDurationLabel: 'focus', taskDurationLabelId: 'l1' });
    expect(settings.todo.get(USER)?.labels.map((label) => label.name)).toEqual(['focus']);
    await service.setTaskDurationLabel(USER, SYNC_ALL_TASKS);
    expect(settings.todo.get(USER)).toMatchObject({
      taskDurationLabel: SYNC_ALL_TASKS,
      taskDurationLabelId: null,
    });
  });

  it('refuses a task duration label Todoist does not have', async () => {
    const { service, settings } = await setup({ accountType: 'Premium' });
    const error = await failure(service.setTaskDurationLabel(USER, 'shallow'));
    expect(error).toMatchObject({ field: 'label', message: 'Please choose one of your Todoist labels' });
    expect(settings.todo.get(USER)?.taskDurationLabel).toBeNull();
  });

  it('refuses a task duration label to a Free account', async () => {
    const { service } = await setup({ accountType: 'Free' });
    expect(await failure(service.setTaskDurationLabel(USER, 'deep'))).toBeInstanceOf(PlanRequiredError);
  });
});

describe('settings service: calendar settings', () => {
  it('refuses every calendar setting before a calendar is connected', async () => {
    const { service } = await setup();
    for (const change of [
      service.setCalendarId(USER, 'work'),
      service.setColor(USER, '5'),
      service.setCategory(USER, null),
      service.setPrivate(USER, true),
      service.setTodoistLinkDescription(USER, true),
      service.setReminder(USER, 10),
    ]) {
      const error = await failure(change);
      expect(error).toBeInstanceOf(StateConflictError);
      expect(error).toHaveProperty('message', 'Please connect a calendar first.');
    }
  });

  it('chooses one of the connected account’s calendars, and refuses any other', async () => {
    const { service, settings } = await setup({ calendar: 'google' });
    const error = await failure(service.setCalendarId(USER, 'someone-else'));
    expect(error).toMatchObject({ field: 'calendarId', message: 'Please choose one of your calendars' });
    expect(settings.calendar.get(USER)?.calendarId).toBeNull();
    await service.setCalendarId(USER, 'work');
    expect(settings.calendar.get(USER)).toMatchObject({ calendarId: 'work', updatedAt: new Date(LATER) });
  });

  it('sets an event colour on Google Calendar only', async () => {
    const google = await setup({ calendar: 'google' });
    await google.service.setColor(USER, '5');
    expect(google.settings.calendar.get(USER)?.color).toBe('5');

    const microsoft = await setup({ calendar: 'microsoft' });
    const error = await failure(microsoft.service.setColor(USER, '5'));
    expect(error).toHaveProperty('message', 'Event colours are for Google Calendar.');
    expect(microsoft.settings.calendar.get(USER)?.color).toBe('');
  });

  it('sets one of the Outlook categories, or none, on Microsoft 365 only', async () => {
    const { service, settings } = await setup({ calendar: 'microsoft' });
    await service.setCategory(USER, 'Focus');
    expect(settings.calendar.get(USER)?.category).toBe('Focus');
    const error = await failure(service.setCategory(USER, 'Errands'));
    expect(error).toMatchObject({
      field: 'category',
      message: 'Please choose one of your Outlook categories',
    });
    await service.setCategory(USER, null);
    expect(settings.calendar.get(USER)?.category).toBeNull();

    const google = await setup({ calendar: 'google' });
    const refused = await failure(google.service.setCategory(USER, 'Focus'));
    expect(refused).toHaveProperty('message', 'Categories are for Microsoft 365.');
  });

  it('stores privacy, the Todoist link and the reminder', async () => {
    const { service, settings } = await setup({ calendar: 'google' });
    await service.setPrivate(USER, true);
    await service.setTodoistLinkDescription(USER, true);
    await service.setReminder(USER, 10);
    expect(settings.calendar.get(USER)).toMatchObject({
      private: true,
      todoistLinkDescription: true,
      reminder: 10,
      updatedAt: new Date(LATER),
    });
    await service.setReminder(USER, null);
    expect(settings.calendar.get(USER)?.reminder).toBeNull();
  });

  it('refuses calendar settings while the calendar must be connected again', async () => {
    const { service, integrations } = await setup({ calendar: 'google' });
    const row = integrations.rows.get(`${USER}:calendar`);
    if (row) row.needsReconnect = true;
    expect(await failure(service.setPrivate(USER, true))).toBeInstanceOf(StateConflictError);
  });
});

describe('settings service: completion, sync and the wizard', () => {
  it('stores what completing a task does to its event', async () => {
    const { service, settings } = await setup({ todoist: false });
    await service.setOnComplete(USER, 'remove');
    await service.setOnPreComplete(USER, true);
    expect(settings.todo.get(USER)).toMatchObject({
      onComplete: 'remove',
      onPreComplete: true,
      updatedAt: new Date(LATER),
    });
  });

  it('switches sync on only when Todoist, a timebox, a calendar and its choice are in place', async () => {
    const { service, users } = await setup({ calendar: 'google' });
    const message =
      'Sync can be switched on once Todoist is connected, at least one timebox setting exists, and a calendar is connected and chosen.';
    expect(await failure(service.setSyncActive(USER, true))).toMatchObject({ message });
    await service.addTimebox(USER, 'Focus', 25);
    const noCalendarChosen = await failure(service.setSyncActive(USER, true));
    expect(noCalendarChosen).toBeInstanceOf(StateConflictError);
    expect(users.rows.get(USER)?.syncActive).toBe(false);

    await service.setCalendarId(USER, 'work');
    await service.setSyncActive(USER, true);
    expect(users.rows.get(USER)).toMatchObject({ syncActive: true, updatedAt: new Date(LATER) });
  });

  it('always lets sync be switched off', async () => {
    const { service, users } = await setup({ todoist: false });
    users.rows.set(USER, userRow({ id: USER, syncActive: true }));
    await service.setSyncActive(USER, false);
    expect(users.rows.get(USER)?.syncActive).toBe(false);
  });

  it('records that the welcome wizard was seen', async () => {
    const { service, users } = await setup();
    await service.setWizardSeen(USER, true);
    expect(users.rows.get(USER)).toMatchObject({ welcomeWizardSeen: true, updatedAt: new Date(LATER) });
  });
});

describe('settings service: sync requests', () => {
  it('asks for the user’s next sync run after every change the sync reads, and only after those', async () => {
    const { service, requested } = await setup({ calendar: 'google', accountType: 'Premium' });
    const changes: [string, () => Promise<void>][] = [
      ['add a timebox', () => service.addTimebox(USER, 'deep', 45)],
      ['edit a timebox', () => service.editTimebox(USER, 'deep', 'deep', 30)],
      ['task durations', () => service.setTaskDurationActive(USER, false)],
      ['task-duration label', () => service.setTaskDurationLabel(USER, SYNC_ALL_TASKS)],
      ['calendar', () => service.setCalendarId(USER, 'work')],
      ['colour', () => service.setColor(USER, '5')],
      ['private', () => service.setPrivate(USER, true)],
      ['link to the task', () => service.setTodoistLinkDescription(USER, true)],
      ['reminder', () => service.setReminder(USER, 10)],
      ['completion', () => service.setOnComplete(USER, 'checkmark')],
      ['completion of recurring tasks', () => service.setOnPreComplete(USER, true)],
      ['sync switched on', () => service.setSyncActive(USER, true)],
      ['delete a timebox', () => service.deleteTimebox(USER, 'deep')],
    ];
    for (const [name, change] of changes) {
      const before = requested.length;
      await change();
      expect(requested.slice(before), name).toEqual([USER]);
    }
    const before = requested.length;
    await service.setWizardSeen(USER, true);
    await service.setNotices(USER, { mails: false, resolvedMails: false });
    // A change refused asks for nothing.
    await failure(service.setCalendarId(USER, 'unknown'));
    expect(requested.length).toBe(before);
  });
});
