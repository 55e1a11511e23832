import { createHash, randomBytes } from 'node:crypto';
import { randomUrlSafe } from '../shared/ids.ts';
import type { EventData, NormalizedEvent } from './google-calendar.event-model.ts';

export type Account = { email: string; name: string; calendarIds: string[] };

export const ACCESS_ROLES = ['owner', 'writer', 'reader', 'freeBusyReader'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

/** Whether the account may write events into the calendar (owner or writer). */
export const canWriteEvents = (calendar: Pick<StoredCalendar, 'accessRole'>): boolean =>
  calendar.accessRole === undefined || calendar.accessRole === 'owner' || calendar.accessRole === 'writer';

export type StoredCalendar = {
  id: string;
  ownerEmail: string;
  summary: string;
  description?: string;
  location?: string;
  timeZone: string;
  colorId: string;
  primary: boolean;
  /**
   * The account's access (calendarList `accessRole`): `owner` for its own calendars; a calendar shared
   * with it may be `writer`, `reader` (events can be read, not written) or `freeBusyReader` (busy times
   * only). Absent: owner.
   */
  accessRole?: AccessRole;
  defaultReminders: { method: 'email' | 'popup'; minutes: number }[];
  etag: string;
  /** The change number when the calendar was added (calendarList sync tokens compare against it). */
  seq: number;
  /** Stable id of the calendar's events collection in push notifications. */
  resourceId: string;
  events: Map<string, StoredEvent>;
};

export type StoredEvent = {
  id: string;
  calendarId: string;
  data: EventData;
  startMs: number;
  endMs: number;
  created: string;
  updated: string;
  etag: string;
  /** The store-wide change number of the last write; sync tokens compare against it. */
  seq: number;
  sequence: number;
  iCalUID: string;
  /** Set on the instances a recurring event expands into. */
  recurringEventId?: string;
  originalStartTime?: { date?: string; dateTime?: string; timeZone?: string };
  /** Set on the cancelled entry an event leaves in the calendar it was moved out of: the calendar it went to. */
  movedTo?: string;
};

/** The properties calendars.insert, patch and update write (the `calendar#calendar` resource's writable ones). */
export type CalendarProperties = Pick<StoredCalendar, 'summary' | 'description' | 'location' | 'timeZone'>;

/**
 * What is left of a deleted calendar: enough for calendarList incremental syncs (and `showDeleted`) to
 * report it gone to its owner.
 */
export type RemovedCalendar = { id: string; ownerEmail: string; etag: string; seq: number };

export type ChangeListener = (calendar: StoredCalendar, state: 'exists' | 'not_exists') => void;

type SyncToken = { calendarId: string; seq: number };

/**
 * Sync tokens kept before the oldest are dropped (a dropped token answers 410, as an expired one does):
 * a bound on the emulator's memory, large enough for the scale benchmark's 10,000 users, each holding an
 * events and a calendar-list token, to keep theirs.
 */
const MAX_SYNC_TOKENS = 200_000;
const SECONDARY_CALENDARS = [
  { summary: 'Work', colorId: '9' },
  { summary: 'Timeboxer', colorId: '16' },
];
// The colour a calendar made with calendars.insert gets (Google picks one; the request cannot).
const NEW_CALENDAR_COLOR_ID = '1';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The event a calendar holds under this id, deleted ones included; an event moved to another calendar
 * is no longer there (only its cancelled entry, for incremental syncs).
 */
export function eventIn(calendar: StoredCalendar, id: string): StoredEvent | undefined {
  const event = calendar.events.get(id);
  return event?.movedTo === undefined ? event : undefined;
}

/** Accounts, their calendars and events, and the change log that sync tokens and channels rely on. */
export class CalendarStore {
  #accounts = new Map<string, Account>();
  #calendars = new Map<string, StoredCalendar>();
  /** Each owner's deleted calendars, oldest first. */
  #removedCalendars = new Map<string, RemovedCalendar[]>();
  #syncTokens = new Map<string, SyncToken>();
  #listeners: ChangeListener[] = [];
  #seq = 0;
  #lastEtag = 0n;
  readonly defaultTimeZone: string;

  constructor(defaultTimeZone: string) {
    this.defaultTimeZone = defaultTimeZone;
  }

  onChange(listener: ChangeListener): void {
    this.#listeners.push(listener);
  }

  /** The same lower-cased e-mail is the same Google account; a new one gets its seeded calendars. */
  ensureAccount(email: string, name: string, timeZone = this.defaultTimeZone): Account {
    const key = email.trim().toLowerCase();
    const existing = this.#accounts.get(key);
    if (existing) {
      if (name) existing.name = name;
      return existing;
    }
    const account: Account = { email: key, name: name || key, calendarIds: [] };
    this.#accounts.set(key, account);
    this.addCalendar(account, { id: key, summary: key, colorId: '14', primary: true, timeZone });
    for (const seed of SECONDARY_CALENDARS) {
      const id = `c_${hash(`${key}/${seed.summary}`)}@group.calendar.google.com`;
      this.addCalendar(account, { id, ...seed, primary: false, timeZone });
    }
    return account;
  }

  account(email: string): Account | undefined {
    return this.#accounts.get(email.trim().toLowerCase());
  }

  addCalendar(
    account: Account,
    details: CalendarProperties & { id: string; colorId: string; primary: boolean },
  ): StoredCalendar {
    const calendar: StoredCalendar = {
      ...details,
      ownerEmail: account.email,
      defaultReminders: details.primary ? [{ method: 'popup', minutes: 10 }] : [],
      etag: this.nextEtag(),
      seq: ++this.#seq,
      resourceId: Buffer.from(hash(`resource/${details.id}`), 'hex')
        .toString('base64url')
        .slice(0, 27),
      events: new Map(),
    };
    this.#calendars.set(calendar.id, calendar);
    account.calendarIds.push(calendar.id);
    return calendar;
  }

  /**
   * A new secondary calendar of the account (calendars.insert), with an id in the form Google gives
   * them; the account owns it and has it on its calendar list.
   */
  createCalendar(account: Account, properties: CalendarProperties): StoredCalendar {
    const id = `c_${randomBytes(32).toString('hex')}@group.calendar.google.com`;
    return this.addCalendar(account, { ...properties, id, colorId: NEW_CALENDAR_COLOR_ID, primary: false });
  }

  /**
   * New properties (calendars.patch and update) and so a new etag. The change number stays: Google's
   * calendarList incremental sync leaves out entries where only read-only fields such as the calendar's
   * properties changed (calendarList.list, `syncToken`).
   */
  updateCalendar(calendar: StoredCalendar, properties: CalendarProperties): StoredCalendar {
    Object.assign(calendar, properties, { etag: this.nextEtag() });
    return calendar;
  }

  /** `primary` names the account's own calendar; other calendars only when the account owns them. */
  calendarFor(email: string, calendarId: string): StoredCalendar | undefined {
    const id = calendarId === 'primary' ? email : calendarId;
    const calendar = this.#calendars.get(id);
    return calendar && calendar.ownerEmail === email ? calendar : undefined;
  }

  calendar(id: string): StoredCalendar | undefined {
    return this.#calendars.get(id);
  }

  calendarsOf(email: string): StoredCalendar[] {
    const account = this.account(email);
    return (account?.calendarIds ?? []).flatMap((id) => this.#calendars.get(id) ?? []);
  }

  /** The owner's deleted calendars, for calendarList incremental syncs. */
  removedCalendarsOf(email: string): RemovedCalendar[] {
    const key = email.trim().toLowerCase();
    return [...(this.#removedCalendars.get(key) ?? [])];
  }

  /**
   * The calendar goes with its events and sync tokens; its owner's calendarList syncs report it
   * deleted, and its watchers hear `not_exists`.
   */
  deleteCalendar(calendar: StoredCalendar): void {
    this.#calendars.delete(calendar.id);
    const account = this.account(calendar.ownerEmail);
    if (account) account.calendarIds = account.calendarIds.filter((id) => id !== calendar.id);
    const removed = this.#removedCalendars.get(calendar.ownerEmail) ?? [];
    removed.push({
      id: calendar.id,
      ownerEmail: calendar.ownerEmail,
      etag: this.nextEtag(),
      seq: ++this.#seq,
    });
    this.#removedCalendars.set(calendar.ownerEmail, removed);
    this.expireSyncTokens(calendar.id);
    for (const listener of this.#listeners) listener(calendar, 'not_exists');
  }

  /** Writes an event (new or changed) and tells the watchers. */
  write(
    calendar: StoredCalendar,
    id: string,
    normalized: NormalizedEvent,
    options: { keepUpdated?: boolean; bumpSequence?: boolean } = {},
  ): StoredEvent {
    const now = new Date().toISOString();
    const previous = calendar.events.get(id);
    const event: StoredEvent = {
      id,
      calendarId: calendar.id,
      ...normalized,
      created: previous?.created ?? now,
      updated: options.keepUpdated && previous ? previous.updated : now,
      etag: this.nextEtag(),
      seq: ++this.#seq,
      sequence: (previous?.sequence ?? 0) + (previous && options.bumpSequence ? 1 : 0),
      iCalUID: previous?.iCalUID ?? `${id}@google.com`,
    };
    return this.#put(calendar, event);
  }

  /**
   * Moves an event to another calendar with its id, iCalUID, creation time and sequence, in the form
   * `normalized` gives it there. The source keeps a cancelled entry, so its incremental syncs report the
   * event gone while the destination's report it new; the watchers of both calendars hear of it.
   */
  move(
    from: StoredCalendar,
    to: StoredCalendar,
    event: StoredEvent,
    normalized: NormalizedEvent,
  ): StoredEvent {
    const updated = new Date().toISOString();
    this.#put(from, {
      ...event,
      data: { ...event.data, status: 'cancelled' },
      updated,
      etag: this.nextEtag(),
      seq: ++this.#seq,
      movedTo: to.id,
    });
    const { movedTo: _movedTo, ...moved } = event;
    return this.#put(to, {
      ...moved,
      ...normalized,
      calendarId: to.id,
      updated,
      etag: this.nextEtag(),
      seq: ++this.#seq,
    });
  }

  #put(calendar: StoredCalendar, event: StoredEvent): StoredEvent {
    calendar.events.set(event.id, event);
    for (const listener of this.#listeners) listener(calendar, 'exists');
    return event;
  }

  /** Deleting keeps a cancelled tombstone, which incremental syncs and `showDeleted` reveal. */
  cancel(calendar: StoredCalendar, event: StoredEvent): StoredEvent {
    const data: EventData = { ...event.data, status: 'cancelled' };
    return this.write(calendar, event.id, { data, startMs: event.startMs, endMs: event.endMs });
  }

  get seq(): number {
    return this.#seq;
  }

  mintSyncToken(calendarId: string, seq: number): string {
    const token = `C${randomUrlSafe(24)}`;
    this.#syncTokens.set(token, { calendarId, seq });
    if (this.#syncTokens.size > MAX_SYNC_TOKENS) {
      const oldest = this.#syncTokens.keys().next().value;
      if (oldest !== undefined) this.#syncTokens.delete(oldest);
    }
    return token;
  }

  /** The change number a sync token stands for, or undefined when it expired or belongs elsewhere. */
  syncTokenSeq(token: string, calendarId: string): number | undefined {
    const found = this.#syncTokens.get(token);
    return found && found.calendarId === calendarId ? found.seq : undefined;
  }

  expireSyncTokens(calendarId: string): number {
    let expired = 0;
    for (const [token, details] of this.#syncTokens) {
      if (details.calendarId !== calendarId) continue;
      this.#syncTokens.delete(token);
      expired += 1;
    }
    return expired;
  }

  /** Quoted, strictly increasing, microsecond-like numbers, as Google's event etags look. */
  nextEtag(): string {
    const now = BigInt(Date.now()) * 1000n;
    this.#lastEtag = now > this.#lastEtag ? now : this.#lastEtag + 1n;
    return `"${this.#lastEtag}"`;
  }

  reset(): void {
    this.#accounts.clear();
    this.#calendars.clear();
    this.#removedCalendars.clear();
    this.#syncTokens.clear();
  }

  snapshot() {
    // Counted in one pass: filtering every token for each calendar grows with calendars × tokens.
    const liveSyncTokens = new Map<string, number>();
    for (const { calendarId } of this.#syncTokens.values()) {
      liveSyncTokens.set(calendarId, (liveSyncTokens.get(calendarId) ?? 0) + 1);
    }
    return {
      accounts: [...this.#accounts.values()].map((account) => ({
        ...account,
        calendars: this.calendarsOf(account.email).map(({ events, ...calendar }) => ({
          ...calendar,
          liveSyncTokens: liveSyncTokens.get(calendar.id) ?? 0,
          events: [...events.values()],
        })),
      })),
    };
  }
}
