import { type AddTaskArgs, type Task, TodoistApi, type UpdateTaskArgs } from '@doist/todoist-sdk';
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import type {
  SandboxCalendar,
  SandboxEventInput,
  SandboxTaskInput,
  SandboxTodoist,
} from '#shared/api/sandbox.schema.ts';

export type SandboxEndpoints = {
  todoistOrigin: string;
  googleCalendarOrigin: string;
};

const TOKEN_REFRESH_MS = 50 * 60_000;
const WINDOW_PAST_MS = 24 * 60 * 60_000;
const WINDOW_FUTURE_MS = 14 * 24 * 60 * 60_000;

export type SandboxConsole = ReturnType<typeof createSandboxConsole>;

/**
 * Acts as a person using Todoist and Google Calendar directly, on the emulators: the sandbox page
 * uses it so that a visitor can change either side and watch the sync react. It obtains tokens
 * through the emulators' control routes, then uses the same official SDKs as the product.
 */
export function createSandboxConsole(endpoints: SandboxEndpoints) {
  const todoistTokens = new Map<string, Promise<string>>();
  const calendarTokens = new Map<string, { token: Promise<string>; at: number }>();

  const todoist = async (email: string) => {
    let token = todoistTokens.get(email);
    if (!token) {
      token = postJson<{ users: { accessToken: string }[] }>(`${endpoints.todoistOrigin}/_emulator/seed`, {
        users: [{ email }],
      }).then((body) => body.users[0]?.accessToken ?? '');
      todoistTokens.set(email, token);
      token.catch(() => todoistTokens.delete(email));
    }
    return new TodoistApi(await token, { baseUrl: endpoints.todoistOrigin });
  };

  const googleCalendar = async (email: string) => {
    let cached = calendarTokens.get(email);
    if (!cached || Date.now() - cached.at > TOKEN_REFRESH_MS) {
      const token = postJson<{ access_token: string }>(`${endpoints.googleCalendarOrigin}/_emulator/tokens`, {
        email,
        scopes: ['https://www.googleapis.com/auth/calendar'],
      }).then((body) => body.access_token);
      cached = { token, at: Date.now() };
      calendarTokens.set(email, cached);
      token.catch(() => calendarTokens.delete(email));
    }
    const auth = new OAuth2Client();
    auth.setCredentials({ access_token: await cached.token });
    return calendar({ version: 'v3', auth, rootUrl: `${endpoints.googleCalendarOrigin}/` });
  };

  return {
    async readTodoist(email: string): Promise<SandboxTodoist> {
      const api = await todoist(email);
      const [tasks, labels] = await Promise.all([
        api.getTasks({ limit: 200 }),
        api.getLabels({ limit: 200 }),
      ]);
      return { tasks: tasks.results.map(toSandboxTask), labels: labels.results.map((label) => label.name) };
    },

    async addTask(input: SandboxTaskInput): Promise<void> {
      const api = await todoist(input.email);
      // The SDK's types require due and duration fields in pairs; the spreads keep them paired.
      await api.addTask({
        content: input.content,
        labels: input.labels,
        ...(input.due && { dueDatetime: new Date(input.due).toISOString() }),
        ...(input.durationMinutes && { duration: input.durationMinutes, durationUnit: 'minute' }),
      } as AddTaskArgs);
    },

    async updateTask(id: string, input: SandboxTaskInput): Promise<void> {
      const api = await todoist(input.email);
      await api.updateTask(id, {
        content: input.content,
        labels: input.labels,
        ...(input.due ? { dueDatetime: new Date(input.due).toISOString() } : { dueString: 'no date' }),
        ...(input.durationMinutes
          ? { duration: input.durationMinutes, durationUnit: 'minute' as const }
          : { duration: null, durationUnit: null }),
      } as UpdateTaskArgs);
    },

    async completeTask(email: string, id: string): Promise<void> {
      await (await todoist(email)).closeTask(id);
    },

    async deleteTask(email: string, id: string): Promise<void> {
      await (await todoist(email)).deleteTask(id);
    },

    async readCalendar(email: string, calendarId?: string): Promise<SandboxCalendar> {
      const api = await googleCalendar(email);
      const list = await api.calendarList.list({ maxResults: 250 });
      const calendars = (list.data.items ?? []).map((entry) => ({
        id: entry.id ?? '',
        name: entry.summary ?? entry.id ?? '',
        primary: entry.primary === true,
      }));
      const chosen = calendars.find((entry) => entry.id === calendarId) ?? calendars.find((c) => c.primary);
      if (!chosen) return { calendars, calendarId: '', events: [] };
      const now = Date.now();
      const events = await api.events.list({
        calendarId: chosen.id,
        timeMin: new Date(now - WINDOW_PAST_MS).toISOString(),
        timeMax: new Date(now + WINDOW_FUTURE_MS).toISOString(),
        singleEvents: true,
        orderBy: 'startTime',
        maxResults: 250,
      });
      return { calendars, calendarId: chosen.id, events: (events.data.items ?? []).map(toSandboxEvent) };
    },

    async addEvent(input: SandboxEventInput): Promise<void> {
      const api = await googleCalendar(input.email);
      await api.events.insert({ calendarId: input.calendarId, requestBody: eventBody(input) });
    },

    async updateEvent(id: string, input: SandboxEventInput): Promise<void> {
      const api = await googleCalendar(input.email);
      await api.events.patch({ calendarId: input.calendarId, eventId: id, requestBody: eventBody(input) });
    },

    async deleteEvent(email: string, calendarId: string, id: string): Promise<void> {
      await (await googleCalendar(email)).events.delete({ calendarId, eventId: id });
    },
  };
}

function toSandboxTask(task: Task) {
  return {
    id: task.id,
    content: task.content,
    // API v1 puts a due time into `date` itself (YYYY-MM-DDTHH:MM:SS[Z]); `datetime` is a legacy field.
    due: task.due
      ? {
          date: task.due.date,
          datetime: task.due.datetime ?? (task.due.date.includes('T') ? task.due.date : null),
          isRecurring: task.due.isRecurring,
        }
      : null,
    durationMinutes: task.duration?.unit === 'minute' ? task.duration.amount : null,
    labels: task.labels,
  };
}

function toSandboxEvent(event: calendar_v3.Schema$Event) {
  return {
    id: event.id ?? '',
    summary: event.summary ?? '',
    start: event.start?.dateTime ?? event.start?.date ?? '',
    end: event.end?.dateTime ?? event.end?.date ?? '',
    allDay: !event.start?.dateTime,
    recurring: Boolean(event.recurringEventId || event.recurrence?.length),
  };
}

function eventBody(input: SandboxEventInput): calendar_v3.Schema$Event {
  return { summary: input.summary, start: { dateTime: input.start }, end: { dateTime: input.end } };
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  return (await response.json()) as T;
}
