import type { EventWrite } from '#server/sync/calendar-target.port.ts';

/** Test data for the Microsoft calendar adapter's and mapper's tests: what the sync writes, what Graph answers. */

/** What the sync asks to write: an hour on 1 May 2030 in Berlin, no category, reminder or description. */
export const eventWrite = (overrides: Partial<EventWrite> = {}): EventWrite => ({
  appearance: true,
  title: 'T',
  start: new Date('2030-05-01T07:00:00Z'),
  end: new Date('2030-05-01T08:00:00Z'),
  date: null,
  timeZone: 'Europe/Berlin',
  color: '',
  category: null,
  private: false,
  reminderMinutes: null,
  description: null,
  taskId: 'task-1',
  ...overrides,
});

/** A UTC instant (`2030-05-01T09:00:00Z`) as Graph writes it when asked for UTC. */
export const graphUtc = (instant: string) => ({
  dateTime: `${instant.slice(0, 19)}.0000000`,
  timeZone: 'UTC',
});

/** A single, timed event as Graph answers it, from `start` to `end` (UTC instants), with `fields` on top. */
export const graphEvent = (
  id: string,
  subject: string,
  start: string,
  end: string,
  fields: Record<string, unknown> = {},
) => ({
  id,
  subject,
  start: graphUtc(start),
  end: graphUtc(end),
  isAllDay: false,
  type: 'singleInstance',
  ...fields,
});
