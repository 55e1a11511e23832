import type { Call } from './recorder.ts';

/**
 * The one scenario the check plays on each provider, through the documented REST endpoints (the app's
 * SDKs call the same): everything it makes carries `name`, lives in a throwaway project or calendar, and
 * is deleted at the end, whatever failed on the way.
 */
export type ScenarioContext = { call: Call; name: string; now: Date };

const idOf = (json: Record<string, unknown> | null) => (typeof json?.id === 'string' ? json.id : null);
const hourFrom = (now: Date, hours: number) =>
  new Date(Math.ceil(now.getTime() / 3_600_000 + hours) * 3_600_000);

/** Todoist API v1: a project, a label, a task with a due time in both, moved, completed, then all deleted. */
export async function todoistScenario({ call, name, now }: ScenarioContext, base: string): Promise<void> {
  const api = `${base}/api/v1`;
  const project = idOf((await call('todoist: add a project', 'POST', `${api}/projects`, { name })).json);
  const labelName = name.replace(/[^A-Za-z0-9]/g, '').slice(0, 40);
  const label = idOf((await call('todoist: add a label', 'POST', `${api}/labels`, { name: labelName })).json);
  try {
    if (!project) return;
    const at = hourFrom(now, 24).toISOString().replace('.000Z', 'Z');
    const task = idOf(
      (
        await call('todoist: add a task with a due time', 'POST', `${api}/tasks`, {
          content: name,
          project_id: project,
          labels: [labelName],
          due_datetime: at,
          duration: 30,
          duration_unit: 'minute',
        })
      ).json,
    );
    if (!task) return;
    await call('todoist: read the task', 'GET', `${api}/tasks/${task}`);
    await call('todoist: move the task an hour on', 'POST', `${api}/tasks/${task}`, {
      due_datetime: hourFrom(now, 25).toISOString().replace('.000Z', 'Z'),
    });
    await call('todoist: read its project’s tasks', 'GET', `${api}/tasks?project_id=${project}`);
    await call('todoist: complete the task', 'POST', `${api}/tasks/${task}/close`);
    await call('todoist: delete the task', 'DELETE', `${api}/tasks/${task}`);
    await call('todoist: read the deleted task', 'GET', `${api}/tasks/${task}`);
  } finally {
    if (label) await call('todoist: delete the label', 'DELETE', `${api}/labels/${label}`);
    if (project) await call('todoist: delete the project', 'DELETE', `${api}/projects/${project}`);
  }
}

/** What a Google push to the check's listener carried: its X-Goog-* header names and resource states. */
export type PushWatch = { address: string; received: () => Promise<Record<string, string> | null> };

/** Google Calendar v3: a throwaway calendar, an event made, moved, listed, deleted, read after. */
export async function googleScenario(
  { call, name, now }: ScenarioContext,
  rootUrl: string,
  push: PushWatch | null,
): Promise<Record<string, string> | null> {
  const api = `${rootUrl.replace(/\/$/, '')}/calendar/v3`;
  const calendar = idOf(
    (await call('google: make a calendar', 'POST', `${api}/calendars`, { summary: name })).json,
  );
  let pushed: Record<string, string> | null = null;
  try {
    if (!calendar) return null;
    const events = `${api}/calendars/${encodeURIComponent(calendar)}/events`;
    const first = await call(
      'google: list its events',
      'GET',
      `${events}?showDeleted=true&singleEvents=true`,
    );
    const syncToken = typeof first.json?.nextSyncToken === 'string' ? first.json.nextSyncToken : null;
    if (push) {
      await call('google: watch its events', 'POST', `${events}/watch`, {
        id: crypto.randomUUID(),
        type: 'web_hook',
        address: push.address,
      });
    }
    const slot = (hours: number) => ({
      start: { dateTime: hourFrom(now, hours).toISOString() },
      end: { dateTime: hourFrom(now, hours + 1).toISOString() },
    });
    const event = idOf(
      (await call('google: make an event', 'POST', events, { summary: name, ...slot(24) })).json,
    );
    if (push) pushed = await push.received();
    if (!event) return pushed;
    await call('google: move the event an hour on', 'PATCH', `${events}/${event}`, slot(25));
    if (syncToken)
      await call(
        'google: read the changes since',
        'GET',
        `${events}?syncToken=${encodeURIComponent(syncToken)}`,
      );
    await call('google: delete the event', 'DELETE', `${events}/${event}`);
    await call('google: read the deleted event', 'GET', `${events}/${event}`);
    return pushed;
  } finally {
    if (calendar)
      await call('google: delete the calendar', 'DELETE', `${api}/calendars/${encodeURIComponent(calendar)}`);
  }
}

/** Microsoft Graph v1.0: a throwaway calendar, an event made, moved, read by delta, deleted, read after. */
export async function microsoftScenario(
  { call, name, now }: ScenarioContext,
  graphBase: string,
): Promise<void> {
  const api = `${graphBase.replace(/\/$/, '')}/v1.0/me`;
  const calendar = idOf(
    (await call('microsoft: make a calendar', 'POST', `${api}/calendars`, { name })).json,
  );
  try {
    if (!calendar) return;
    const slot = (hours: number) => ({
      start: { dateTime: hourFrom(now, hours).toISOString().slice(0, 19), timeZone: 'UTC' },
      end: {
        dateTime: hourFrom(now, hours + 1)
          .toISOString()
          .slice(0, 19),
        timeZone: 'UTC',
      },
    });
    const event = idOf(
      (
        await call('microsoft: make an event', 'POST', `${api}/calendars/${calendar}/events`, {
          subject: name,
          ...slot(24),
        })
      ).json,
    );
    if (!event) return;
    await call('microsoft: move the event an hour on', 'PATCH', `${api}/events/${event}`, slot(25));
    const window = `startDateTime=${hourFrom(now, 0).toISOString()}&endDateTime=${hourFrom(now, 48).toISOString()}`;
    await call(
      'microsoft: read its calendar view by delta',
      'GET',
      `${api}/calendars/${calendar}/calendarView/delta?${window}`,
    );
    await call('microsoft: delete the event', 'DELETE', `${api}/events/${event}`);
    await call('microsoft: read the deleted event', 'GET', `${api}/events/${event}`);
  } finally {
    if (calendar) await call('microsoft: delete the calendar', 'DELETE', `${api}/calendars/${calendar}`);
  }
}
