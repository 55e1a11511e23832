import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '#server/app.ts';
import { seedCalendar, seedTodoist } from '#server/test/seed-connections.ts';
import { signInThroughEmulator } from '#server/test/sign-in.ts';
import { createTestApp, crossSite, sameOrigin } from '#server/test/test-app.ts';
import { SYNC_ALL_TASKS } from '#shared/settings/constants.ts';
import { MESSAGES } from '#shared/settings/settings.schema.ts';

type Method = 'POST' | 'PATCH' | 'DELETE';
type Cookies = Record<string, string>;

const labels = [
  { id: 'l2', name: '60_min', color: 'blue', item_order: 2 },
  { id: 'l1', name: '30Minutes', color: 'teal', item_order: 1 },
];
const calendars = [
  { id: 'primary-id', name: 'Ada', color: '#039be5', timeZone: 'Europe/Berlin' },
  { id: 'work-id', name: 'Work', color: '#7986cb', timeZone: 'Europe/Berlin' },
];

describe('settings routes', () => {
  let app: App;
  let counter = 0;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const newUser = async () => {
    counter += 1;
    const result = await signInThroughEmulator(app.server, 'google', {
      email: `settings-${counter}@example.com`,
      name: 'Set Tings',
    });
    const cookies = { sid: result.sessionCookie?.value ?? '' };
    const id: string = (await app.server.inject({ url: '/api/current_user', cookies })).json().id;
    return { cookies, id };
  };
  const call = (method: Method, url: string, cookies: Cookies, payload?: unknown) =>
    app.server.inject({ method, url, cookies, headers: sameOrigin, payload: payload as object });

  it('asks for sign-in on every call', async () => {
    const calls: [Method, string, unknown][] = [
      ['POST', '/api/timeboxsettings', { label: 'a', duration: 5 }],
      ['PATCH', '/api/timeboxsettings', { label: 'a', newLabel: 'b', duration: 5 }],
      ['DELETE', '/api/timeboxsettings/a', undefined],
      ['PATCH', '/api/taskdurationsettings/active', { active: true }],
      ['PATCH', '/api/taskdurationsettings/label', { label: 'a' }],
      ['PATCH', '/api/calendar/id', { calendarId: 'x' }],
      ['PATCH', '/api/calendar/color', { color: '1' }],
      ['PATCH', '/api/calendar/category', { category: null }],
      ['PATCH', '/api/calendar/private', { private: true }],
      ['PATCH', '/api/calendar/todoistlinkdescription', { todoistLinkDescription: true }],
      ['PATCH', '/api/calendar/reminder', { reminder: 15 }],
      ['PATCH', '/api/settings/oncomplete', { setting: 'remove' }],
      ['PATCH', '/api/settings/onprecomplete', { setting: true }],
      ['PATCH', '/api/settings/datedtasks', { setting: 'allday' }],
      ['PATCH', '/api/settings/onsyncactive', { setting: false }],
      [
        'PATCH',
        '/api/settings/autoplan',
        { active: true, days: [1], start: '09:00', end: '17:00', gapMinutes: 0, otherCalendarsBusy: false },
      ],
      ['PATCH', '/api/welcome/onwizardseen', { wizardSeen: true }],
    ];
    for (const [method, url, payload] of calls) {
      expect((await call(method, url, {}, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses a cross-site change', async () => {
    const { cookies } = await newUser();
    const response = await app.server.inject({
      method: 'PATCH',
      url: '/api/welcome/onwizardseen',
      cookies,
      headers: crossSite,
      payload: { wizardSeen: true },
    });
    expect(response.statusCode).toBe(403);
  });

  it('adds timeboxes only with Todoist connected, kept sorted by duration', async () => {
    const { cookies, id } = await newUser();
    const before = await call('POST', '/api/timeboxsettings', cookies, { label: '30Minutes', duration: 30 });
    expect(before.statusCode).toBe(409);

    await seedTodoist(app.database.db, id, { labels });
    await call('POST', '/api/timeboxsettings', cookies, { label: '60_min', duration: 60 });
    await call('POST', '/api/timeboxsettings', cookies, { label: '15Minutes', duration: '15' });
    const response = await call('POST', '/api/timeboxsettings', cookies, {
      label: '30Minutes',
      duration: 30,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().todoSettings.timeboxSettings).toEqual([
      { label: '15Minutes', duration: 15 },
      { label: '30Minutes', duration: 30 },
      { label: '60_min', duration: 60 },
    ]);
    expect(response.json().todoSettings.labels.map((l: { name: string }) => l.name)).toEqual([
      '30Minutes',
      '60_min',
    ]);
  });

  it('answers each invalid timebox with the §5 message for the field, and changes nothing', async () => {
    const { cookies, id } = await newUser();
    await seedTodoist(app.database.db, id);
    await call('POST', '/api/timeboxsettings', cookies, { label: '30Minutes', duration: 30 });
    const cases: [unknown, string, string][] = [
      [{ label: 'a', duration: '' }, 'duration', MESSAGES.durationEmpty],
      [{ label: 'a', duration: 'ten' }, 'duration', MESSAGES.durationNotNumber],
      [{ label: 'a', duration: '0x1E' }, 'duration', MESSAGES.durationNotNumber],
      [{ label: 'a', duration: ' 3e1 ' }, 'duration', MESSAGES.durationNotNumber],
      [{ label: 'a', duration: '+30' }, 'duration', MESSAGES.durationNotNumber],
      [{ label: 'a', duration: '030' }, 'duration', MESSAGES.durationNotNumber],
      [{ label: 'a', duration: '\uFEFF30' }, 'duration', MESSAGES.durationNotNumber],
      [{ label: 'a', duration: '30.0' }, 'duration', MESSAGES.durationNotInteger],
      [{ label: 'a', duration: 7.5 }, 'duration', MESSAGES.durationNotInteger],
      [{ label: 'a', duration: 0 }, 'duration', MESSAGES.durationRange],
      [{ label: 'a', duration: 1441 }, 'duration', MESSAGES.durationRange],
      [{ label: '', duration: 10 }, 'label', MESSAGES.labelEmpty],
      [{ label: 'x'.repeat(61), duration: 10 }, 'label', MESSAGES.labelTooLong],
      [{ label: '30MINUTES', duration: 10 }, 'label', MESSAGES.labelDuplicate],
      [{ label: 'a\u0007b', duration: 10 }, 'label', MESSAGES.controlCharacters],
    ];
    for (const [payload, field, message] of cases) {
      const response = await call('POST', '/api/timeboxsettings', cookies, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().issues[0]).toEqual({ field, message });
    }
    // A NUL in a path or a label the database cannot store is refused by the schema, not a 500.
    for (const [method, url, payload] of [
      ['DELETE', '/api/timeboxsettings/a%00b', undefined],
      ['PATCH', '/api/taskdurationsettings/label', { label: 'a\u0000b' }],
      ['PATCH', '/api/calendar/id', { calendarId: 'x\u0000' }],
      ['PATCH', '/api/calendar/category', { category: 'Work\u0000' }],
    ] as const) {
      expect((await call(method, url, cookies, payload)).statusCode, url).toBe(400);
    }
    const user = (await app.server.inject({ url: '/api/current_user', cookies })).json();
    expect(user.todoSettings.timeboxSettings).toEqual([{ label: '30Minutes', duration: 30 }]);
  });

  it("edits and removes timeboxes, never another user's", async () => {
    const owner = await newUser();
    const other = await newUser();
    await seedTodoist(app.database.db, owner.id);
    await seedTodoist(app.database.db, other.id);
    await call('POST', '/api/timeboxsettings', owner.cookies, { label: '30Minutes', duration: 30 });
    await call('POST', '/api/timeboxsettings', owner.cookies, { label: '1_h', duration: 60 });

    const renamed = await call('PATCH', '/api/timeboxsettings', owner.cookies, {
      label: '30minutes',
      newLabel: '45Minutes',
      duration: 45,
    });
    expect(renamed.json().todoSettings.timeboxSettings).toContainEqual({ label: '45Minutes', duration: 45 });
    const clash = await call('PATCH', '/api/timeboxsettings', owner.cookies, {
      label: '45Minutes',
      newLabel: '1_H',
      duration: 45,
    });
    expect(clash.json().issues[0]).toEqual({ field: 'label', message: MESSAGES.labelDuplicate });
    const sameLabel = await call('PATCH', '/api/timeboxsettings', owner.cookies, {
      label: '45Minutes',
      newLabel: '45Minutes',
      duration: 40,
    });
    expect(sameLabel.statusCode).toBe(200);

    expect((await call('DELETE', '/api/timeboxsettings/1_h', other.cookies)).statusCode).toBe(404);
    expect(
      (
        await call('PATCH', '/api/timeboxsettings', other.cookies, {
          label: '1_h',
          newLabel: 'x',
          duration: 5,
        })
      ).statusCode,
    ).toBe(404);
    const removed = await call('DELETE', '/api/timeboxsettings/1_h', owner.cookies);
    expect(removed.json().todoSettings.timeboxSettings).toEqual([{ label: '45Minutes', duration: 40 }]);
  });

  it('gates task durations on Premium or Business, and pauses timeboxes while active', async () => {
    const free = await newUser();
    await seedTodoist(app.database.db, free.id, { accountType: 'Free', labels });
    const refused = await call('PATCH', '/api/taskdurationsettings/active', free.cookies, { active: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Requires Todoist Premium or Business');

    const premium = await newUser();
    await seedTodoist(app.database.db, premium.id, { accountType: 'Premium', labels });
    const on = await call('PATCH', '/api/taskdurationsettings/active', premium.cookies, { active: true });
    expect(on.json().todoSettings.taskDurationSettings).toEqual({ active: true, label: null });
    const unknown = await call('PATCH', '/api/taskdurationsettings/label', premium.cookies, {
      label: 'nope',
    });
    expect(unknown.statusCode).toBe(400);
    const all = await call('PATCH', '/api/taskdurationsettings/label', premium.cookies, {
      label: SYNC_ALL_TASKS,
    });
    expect(all.json().todoSettings.taskDurationSettings.label).toBe(SYNC_ALL_TASKS);
    const named = await call('PATCH', '/api/taskdurationsettings/label', premium.cookies, {
      label: '60_min',
    });
    expect(named.json().todoSettings.taskDurationSettings.label).toBe('60_min');

    const blocked = await call('POST', '/api/timeboxsettings', premium.cookies, { label: 'a', duration: 5 });
    expect(blocked.statusCode).toBe(409);
    const off = await call('PATCH', '/api/taskdurationsettings/active', free.cookies, { active: false });
    expect(off.statusCode).toBe(200);
  });

  it('changes calendar settings only once a calendar is connected, within its choices', async () => {
    const { cookies, id } = await newUser();
    expect((await call('PATCH', '/api/calendar/private', cookies, { private: true })).statusCode).toBe(409);
    await seedCalendar(app.database.db, id, { provider: 'google', calendars });

    const chosen = await call('PATCH', '/api/calendar/id', cookies, { calendarId: 'work-id' });
    expect(chosen.json().calendarSettings).toMatchObject({
      provider: 'Google Calendar',
      calendarId: 'work-id',
    });
    const foreign = await call('PATCH', '/api/calendar/id', cookies, { calendarId: 'someone-elses' });
    expect(foreign.json().issues[0].field).toBe('calendarId');

    expect(
      (await call('PATCH', '/api/calendar/color', cookies, { color: '5' })).json().calendarSettings.color,
    ).toBe('5');
    expect((await call('PATCH', '/api/calendar/color', cookies, { color: '99' })).statusCode).toBe(400);
    expect((await call('PATCH', '/api/calendar/category', cookies, { category: 'Red' })).statusCode).toBe(
      409,
    );
    await call('PATCH', '/api/calendar/private', cookies, { private: true });
    await call('PATCH', '/api/calendar/todoistlinkdescription', cookies, { todoistLinkDescription: true });
    const reminder = await call('PATCH', '/api/calendar/reminder', cookies, { reminder: 15 });
    expect(reminder.json().calendarSettings).toMatchObject({
      private: true,
      todoistLinkDescription: true,
      reminder: 15,
    });
    expect((await call('PATCH', '/api/calendar/reminder', cookies, { reminder: 45 })).statusCode).toBe(400);
    const none = await call('PATCH', '/api/calendar/reminder', cookies, { reminder: null });
    expect(none.json().calendarSettings.reminder).toBeNull();
  });

  it('keeps "Plan my day": off with the default working hours until chosen, then as chosen', async () => {
    const { cookies, id } = await newUser();
    const plan = {
      active: true,
      days: [1, 3, 5],
      start: '08:30',
      end: '12:00',
      gapMinutes: 10,
      otherCalendarsBusy: true,
    };
    expect((await call('PATCH', '/api/settings/autoplan', cookies, plan)).statusCode).toBe(409);
    await seedCalendar(app.database.db, id, { provider: 'google', calendars });
    const before = await app.server.inject({ url: '/api/current_user', cookies });
    expect(before.json().calendarSettings.autoplan).toEqual({
      active: false,
      days: [1, 2, 3, 4, 5],
      start: '09:00',
      end: '17:00',
      gapMinutes: 0,
      // Not chosen: counted or not by the calendar synced with (see `otherCalendarsCount`).
      otherCalendarsBusy: null,
    });

    const saved = await call('PATCH', '/api/settings/autoplan', cookies, plan);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().calendarSettings.autoplan).toEqual(plan);
    expect(
      (await app.server.inject({ url: '/api/current_user', cookies })).json().calendarSettings.autoplan,
    ).toEqual(plan);

    const refused = async (change: object) => {
      const answer = await call('PATCH', '/api/settings/autoplan', cookies, { ...plan, ...change });
      expect(answer.statusCode).toBe(400);
      return answer.json().issues[0];
    };
    expect(await refused({ end: '08:00' })).toMatchObject({
      field: 'end',
      message: 'Working hours must end after they start.',
    });
    expect((await refused({ days: [] })).message).toBe('Choose at least one working day.');
    expect((await refused({ days: [1, 1] })).message).toBe('Name each day once.');
    expect((await refused({ days: [8] })).message).toBe('Days are 1 (Monday) to 7 (Sunday).');
    expect((await refused({ gapMinutes: 45 })).message).toBe('The gap is 0 to 30 minutes.');
    expect((await refused({ start: '9:00' })).message).toBe('Use a time from 00:00 to 23:59.');
    // Nothing refused was kept.
    expect(
      (await app.server.inject({ url: '/api/current_user', cookies })).json().calendarSettings.autoplan,
    ).toEqual(plan);
  });

  it("takes a Microsoft category from the user's own categories", async () => {
    const { cookies, id } = await newUser();
    await seedCalendar(app.database.db, id, {
      provider: 'microsoft',
      calendars,
      categories: [{ id: 'c1', displayName: 'Timeboxed', color: 'preset7' }],
    });
    const set = await call('PATCH', '/api/calendar/category', cookies, { category: 'Timeboxed' });
    expect(set.json().calendarSettings).toMatchObject({ provider: 'Microsoft', category: 'Timeboxed' });
    expect((await call('PATCH', '/api/calendar/category', cookies, { category: 'Nope' })).statusCode).toBe(
      400,
    );
    expect(
      (await call('PATCH', '/api/calendar/category', cookies, { category: null })).json().calendarSettings
        .category,
    ).toBeNull();
    expect((await call('PATCH', '/api/calendar/color', cookies, { color: '5' })).statusCode).toBe(409);
  });

  it('stores completion options, dated tasks and the wizard flag', async () => {
    const { cookies } = await newUser();
    expect(
      (await call('PATCH', '/api/settings/oncomplete', cookies, { setting: 'checkmark' })).json().todoSettings
        .onComplete,
    ).toBe('checkmark');
    expect(
      (await call('PATCH', '/api/settings/oncomplete', cookies, { setting: 'explode' })).statusCode,
    ).toBe(400);
    expect(
      (await call('PATCH', '/api/settings/onprecomplete', cookies, { setting: true })).json().todoSettings
        .onPreComplete,
    ).toBe(true);
    const dated = (setting: string) => call('PATCH', '/api/settings/datedtasks', cookies, { setting });
    expect((await dated('allday')).json().todoSettings.datedTasks).toBe('allday');
    expect((await dated('sometimes')).statusCode).toBe(400);
    const reread = await app.server.inject({ url: '/api/current_user', cookies });
    expect(reread.json().todoSettings.datedTasks).toBe('allday');
    expect(
      (await call('PATCH', '/api/welcome/onwizardseen', cookies, { wizardSeen: true })).json()
        .welcomeWizardSeen,
    ).toBe(true);
  });

  it('switches sync on only when everything is in place, and off at any time', async () => {
    const { cookies, id } = await newUser();
    const toggle = (setting: boolean) => call('PATCH', '/api/settings/onsyncactive', cookies, { setting });
    expect((await toggle(true)).statusCode).toBe(409);
    await seedTodoist(app.database.db, id);
    await call('POST', '/api/timeboxsettings', cookies, { label: '30Minutes', duration: 30 });
    await seedCalendar(app.database.db, id, { provider: 'google', calendars });
    expect((await toggle(true)).statusCode).toBe(409);
    await call('PATCH', '/api/calendar/id', cookies, { calendarId: 'primary-id' });
    const on = await toggle(true);
    expect(on.statusCode).toBe(200);
    expect(on.json().syncActive).toBe(true);
    expect((await toggle(false)).json().syncActive).toBe(false);
  });
});
