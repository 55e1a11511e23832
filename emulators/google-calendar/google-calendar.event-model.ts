import { isTimeZone } from '../shared/wall-clock.ts';
import { errors, GoogleApiError } from './google-calendar.errors.ts';
import { parseRecurrence } from './google-calendar.recurrence.ts';
import type { EventInput, EventTimeInput } from './google-calendar.schemas.ts';
import {
  formatInZone,
  instantOf,
  parseDate,
  parseDateTime,
  startOfDate,
} from './google-calendar.time-zones.ts';

export type EventTime = { date?: string; dateTime?: string; timeZone?: string };
export type Reminder = { method: 'email' | 'popup'; minutes: number };
export type PropertyMap = Record<string, string>;

/** What an event holds besides its identity and version: the writable fields, normalised. */
export type EventData = {
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary?: string;
  description?: string;
  location?: string;
  colorId?: string;
  start: EventTime;
  end: EventTime;
  visibility?: 'default' | 'public' | 'private' | 'confidential';
  transparency?: 'opaque' | 'transparent';
  reminders: { useDefault: boolean; overrides?: Reminder[] };
  extendedProperties?: { private?: PropertyMap; shared?: PropertyMap };
  recurrence?: string[];
  eventType: 'default';
};

export type NormalizedEvent = { data: EventData; startMs: number; endMs: number };

const MAX_PROPERTY_KEY = 44;
const MAX_PROPERTY_VALUE = 1024;
const TEXT_FIELDS = ['summary', 'description', 'location', 'colorId', 'visibility', 'transparency'] as const;

/** The draft a patch produces: the stored event with the patch laid over it (null clears). */
export function applyPatch(current: EventData, patch: EventInput): EventInput {
  const draft: EventInput = structuredClone(current);
  for (const [key, value] of Object.entries(patch) as [keyof EventInput, unknown][]) {
    if (value === undefined || key === 'id') continue;
    if (value === null) {
      draft[key] = null;
    } else if (key === 'start' || key === 'end') {
      draft[key] = mergeTime(draft[key] ?? {}, value as EventTimeInput);
    } else if (key === 'reminders') {
      draft.reminders = { ...draft.reminders, ...(value as object) };
    } else if (key === 'extendedProperties') {
      draft.extendedProperties = mergeProperties(draft.extendedProperties ?? {}, value as object);
    } else {
      (draft as Record<string, unknown>)[key] = value;
    }
  }
  return draft;
}

function mergeTime(current: EventTimeInput, patch: EventTimeInput): EventTimeInput {
  const merged = { ...current, ...patch };
  if (patch.date) return { date: patch.date };
  if (patch.dateTime) merged.date = undefined;
  return merged;
}

function mergeProperties(current: Record<string, unknown>, patch: object) {
  const merged: Record<string, Record<string, string | null> | null> = {};
  for (const scope of ['private', 'shared'] as const) {
    const base = current[scope] as Record<string, string> | null | undefined;
    const change = (patch as Record<string, Record<string, string | null> | null | undefined>)[scope];
    merged[scope] = change === null ? null : change === undefined ? (base ?? null) : { ...base, ...change };
  }
  return merged;
}

/** Validates a complete draft and normalises it the way Google stores it; throws Google's 400s. */
export function finalizeDraft(draft: EventInput, calendarTimeZone: string): NormalizedEvent {
  if (!draft.start) throw errors.required('Missing start time.');
  if (!draft.end) throw errors.required('Missing end time.');
  const recurring = (draft.recurrence?.length ?? 0) > 0;
  const start = normalizeTime(draft.start, 'start', calendarTimeZone, recurring);
  const end = normalizeTime(draft.end, 'end', calendarTimeZone, recurring);
  if (Boolean(start.time.date) !== Boolean(end.time.date)) {
    throw errors.badRequest('Start and end times must either both be date or both be dateTime.');
  }
  if (end.ms < start.ms || (start.time.date && end.ms === start.ms)) throw errors.timeRangeEmpty();
  if (recurring && !parseRecurrence(draft.recurrence ?? [])) throw errors.invalid('Invalid recurrence rule.');
  if (draft.colorId && !/^(?:[1-9]|1[01])$/.test(draft.colorId)) throw errors.invalid('Invalid Value');

  const data: EventData = {
    status: draft.status ?? 'confirmed',
    start: start.time,
    end: end.time,
    reminders: normalizeReminders(draft.reminders),
    eventType: 'default',
  };
  for (const field of TEXT_FIELDS) {
    const value = draft[field];
    if (value) (data as Record<string, unknown>)[field] = value;
  }
  if (recurring) data.recurrence = [...(draft.recurrence ?? [])];
  const privateProps = normalizeProperties(draft.extendedProperties?.private);
  const sharedProps = normalizeProperties(draft.extendedProperties?.shared);
  if (privateProps || sharedProps) {
    data.extendedProperties = {
      ...(privateProps ? { private: privateProps } : {}),
      ...(sharedProps ? { shared: sharedProps } : {}),
    };
  }
  return { data, startMs: start.ms, endMs: end.ms };
}

function normalizeTime(
  input: EventTimeInput,
  which: 'start' | 'end',
  calendarTimeZone: string,
  recurring: boolean,
): { time: EventTime; ms: number } {
  if (input.timeZone && !isTimeZone(input.timeZone)) {
    throw errors.invalid(`Invalid time zone definition for ${which} time.`);
  }
  if (input.date && input.dateTime) throw errors.badRequest(`Invalid ${which} time.`);
  if (input.date) {
    if (!parseDate(input.date)) throw errors.badRequest(`Invalid ${which} time.`);
    return { time: { date: input.date }, ms: startOfDate(input.date, calendarTimeZone) };
  }
  if (!input.dateTime) throw errors.required(`Missing ${which} time.`);
  const parsed = parseDateTime(input.dateTime);
  if (!parsed) throw errors.badRequest(`Invalid ${which} time.`);
  const zone = input.timeZone ?? undefined;
  if ((parsed.offsetMinutes === undefined || recurring) && !zone) {
    throw errors.required(`Missing time zone definition for ${which} time.`);
  }
  const ms = instantOf(parsed, zone ?? calendarTimeZone);
  const time: EventTime = { dateTime: formatInZone(ms, zone ?? calendarTimeZone) };
  if (zone) time.timeZone = zone;
  return { time, ms };
}

function normalizeReminders(input: EventInput['reminders']): EventData['reminders'] {
  const overrides = input?.overrides ?? [];
  const useDefault = input?.useDefault ?? overrides.length === 0;
  if (useDefault && overrides.length > 0) {
    throw new GoogleApiError(400, {
      domain: 'global',
      reason: 'cannotUseDefaultRemindersAndSpecifyOverride',
      message: 'Cannot specify both default reminders and overrides at the same time.',
    });
  }
  if (overrides.length > 5) throw errors.invalid('Cannot specify more than 5 overrides.');
  return useDefault ? { useDefault } : { useDefault, overrides: overrides.map((o) => ({ ...o })) };
}

/** Keys over 44 characters are dropped and values cut to 1024, silently, as Google does. */
function normalizeProperties(input: Record<string, string | null> | null | undefined) {
  if (!input) return undefined;
  const result: PropertyMap = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || key.length > MAX_PROPERTY_KEY) continue;
    result[key] = value.slice(0, MAX_PROPERTY_VALUE);
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** base32hex, 5 to 1024 characters: the ids a client may choose. */
export function isValidEventId(id: string): boolean {
  return /^[a-v0-9]{5,1024}$/.test(id);
}

export function timesChanged(before: EventData, after: EventData): boolean {
  return (
    JSON.stringify([before.start, before.end, before.recurrence]) !==
    JSON.stringify([after.start, after.end, after.recurrence])
  );
}

export function onlyRemindersChanged(before: EventData, after: EventData): boolean {
  const strip = ({ reminders: _reminders, ...rest }: EventData) => JSON.stringify(rest);
  return (
    strip(before) === strip(after) && JSON.stringify(before.reminders) !== JSON.stringify(after.reminders)
  );
}
