import { randomInt } from 'node:crypto';
import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import type { Clock } from '#server/domain/shared/clock.port.ts';
import type { SandboxEvent, SandboxEventInput } from '#shared/api/sandbox.schema.ts';
import { calendarTokens, calendarWindow, type SandboxCalendarService } from './sandbox-emulator-access.ts';

/** A person using the emulated Google Calendar, through the official SDK. */
export function createSandboxGoogleCalendar(origin: string, clock: Clock): SandboxCalendarService {
  const token = calendarTokens(origin, clock, { scopes: ['https://www.googleapis.com/auth/calendar'] });
  const googleCalendar = async (email: string) => {
    const auth = new OAuth2Client();
    auth.setCredentials({ access_token: await token(email) });
    return calendar({ version: 'v3', auth, rootUrl: `${origin}/` });
  };

  return {
    async read(email, calendarId) {
      const api = await googleCalendar(email);
      const list = await api.calendarList.list({ maxResults: 250 });
      const calendars = (list.data.items ?? []).map((entry) => ({
        id: entry.id ?? '',
        name: entry.summary ?? entry.id ?? '',
        primary: entry.primary === true,
      }));
      const chosen = calendars.find((entry) => entry.id === calendarId) ?? calendars.find((c) => c.primary);
      if (!chosen) return { calendars, calendarId: '', events: [] };
      const window = calendarWindow(clock());
      const events = await api.events.list({
        calendarId: chosen.id,
        timeMin: window.from,
        timeMax: window.to,
        singleEvents: true,
        orderBy: 'startTime',
        maxResults: 250,
      });
      return { calendars, calendarId: chosen.id, events: (events.data.items ?? []).map(toSandboxEvent) };
    },

    async add(input) {
      const api = await googleCalendar(input.email);
      await api.events.insert({ calendarId: input.calendarId, requestBody: eventBody(input) });
    },

    async update(id, input) {
      const api = await googleCalendar(input.email);
      await api.events.patch({ calendarId: input.calendarId, eventId: id, requestBody: eventBody(input) });
    },

    async remove({ email, calendarId, id }) {
      await (await googleCalendar(email)).events.delete({ calendarId, eventId: id });
    },
  };
}

function toSandboxEvent(event: calendar_v3.Schema$Event): SandboxEvent {
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
  const event = { summary: input.summary, start: { dateTime: input.start }, end: { dateTime: input.end } };
  return input.fromTodoistSync ? { ...event, description: todoistTaskLink() } : event;
}

/**
 * What Todoist's own Google Calendar integration writes into an event's description: the link to its
 * task. The task need not exist here; the link alone is the mark the sync recognises.
 */
const todoistTaskLink = () => `https://app.todoist.com/app/task/${randomInt(10_000_000, 100_000_000)}`;
