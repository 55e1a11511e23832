import { exchangeId, guid, guidFrom, newChangeKey } from './microsoft.ids.ts';

export type MailboxUser = {
  id: string;
  email: string;
  displayName: string;
  /** Mailbox time zone as Outlook reports it (a Windows name such as `W. Europe Standard Time`, or `UTC`). */
  timeZone: string;
};

export type Calendar = {
  id: string;
  userId: string;
  name: string;
  color: string;
  hexColor: string;
  isDefaultCalendar: boolean;
  changeKey: string;
  /**
   * Someone else's calendar shared with the user (the local copy in the user's mailbox that
   * `/me/calendars` lists), with who shared it. Absent: the user's own calendar.
   */
  sharedBy?: CalendarOwner;
  /** Whether the user may write events there (`canEdit`); absent: yes, as on their own calendars. */
  canEdit?: boolean;
};

/** Graph's `emailAddress` of a calendar's `owner`. */
export type CalendarOwner = { name: string; address: string };

/** Whether the user may create, change and delete events in the calendar. */
export const canEditCalendar = (calendar: Pick<Calendar, 'canEdit'>): boolean => calendar.canEdit !== false;

export type Category = { id: string; userId: string; displayName: string; color: string };

export type MailboxSeed = {
  email: string;
  name?: string;
  timeZone?: string;
  calendars?: { name: string; color?: string }[];
  categories?: { displayName: string; color: string }[];
};

const DEFAULT_CALENDARS = [
  { name: 'Calendar', color: 'auto' },
  { name: 'Timeboxer', color: 'lightBlue' },
];
// Outlook's six default categories.
const DEFAULT_CATEGORIES = [
  { displayName: 'Red category', color: 'preset0' },
  { displayName: 'Orange category', color: 'preset1' },
  { displayName: 'Yellow category', color: 'preset3' },
  { displayName: 'Green category', color: 'preset4' },
  { displayName: 'Blue category', color: 'preset7' },
  { displayName: 'Purple category', color: 'preset8' },
];

/** A user's calendars and master categories, each by id in the order they were made. */
type Mailbox = { calendars: Map<string, Calendar>; categories: Map<string, Category> };

/**
 * Users, their calendars and master categories. A new e-mail gets a fresh mailbox with the defaults.
 * Each user's calendars and categories are kept with the user (by user id), so that a request reads its
 * own without going through every user's (the scale benchmark seeds thousands of mailboxes).
 */
export class MailboxStore {
  #users = new Map<string, MailboxUser>();
  /** Keyed by user id; also holds those of an id no user has (`createCalendar` takes any). */
  #mailboxes = new Map<string, Mailbox>();
  /** Each calendar's user, by calendar id (the test-control routes name a calendar by its id alone). */
  #calendarUsers = new Map<string, string>();
  /** Each user's place among the users (users are only removed all at once, by reset). */
  #order = new Map<string, number>();
  readonly #defaultTimeZone: string;

  constructor(defaultTimeZone: string) {
    this.#defaultTimeZone = defaultTimeZone;
  }

  /** The user for `email`, created with default calendars and categories on first sight. */
  ensureUser(seed: MailboxSeed): MailboxUser {
    const email = seed.email.trim().toLowerCase();
    const id = guidFrom(`microsoft-user:${email}`);
    const existing = this.#users.get(id);
    if (existing) {
      if (seed.name) existing.displayName = seed.name;
      if (seed.timeZone) existing.timeZone = seed.timeZone;
      return existing;
    }
    const user: MailboxUser = {
      id,
      email,
      displayName: seed.name || email.split('@')[0] || email,
      timeZone: seed.timeZone ?? this.#defaultTimeZone,
    };
    this.#order.set(id, this.#users.size);
    this.#users.set(id, user);
    (seed.calendars ?? DEFAULT_CALENDARS).forEach((calendar, index) => {
      this.createCalendar(user.id, calendar.name, calendar.color ?? 'auto', index === 0);
    });
    for (const category of seed.categories ?? DEFAULT_CATEGORIES) {
      this.createCategory(user.id, category.displayName, category.color);
    }
    return user;
  }

  user(id: string): MailboxUser | undefined {
    return this.#users.get(id);
  }

  userByEmail(email: string): MailboxUser | undefined {
    return this.#users.get(guidFrom(`microsoft-user:${email.trim().toLowerCase()}`));
  }

  users(): MailboxUser[] {
    return [...this.#users.values()];
  }

  /** The user's mailbox, made empty on first use. */
  #mailboxOf(userId: string): Mailbox {
    let mailbox = this.#mailboxes.get(userId);
    if (!mailbox) {
      mailbox = { calendars: new Map(), categories: new Map() };
      this.#mailboxes.set(userId, mailbox);
    }
    return mailbox;
  }

  createCalendar(userId: string, name: string, color = 'auto', isDefault = false): Calendar {
    const calendar: Calendar = {
      id: exchangeId(),
      userId,
      name,
      color,
      hexColor: '',
      isDefaultCalendar: isDefault,
      changeKey: newChangeKey(),
    };
    this.#mailboxOf(userId).calendars.set(calendar.id, calendar);
    this.#calendarUsers.set(calendar.id, userId);
    return calendar;
  }

  /** Someone else's calendar, shared with the user to read (`canEdit` false) or to write. */
  shareCalendar(userId: string, name: string, access: { canEdit: boolean; owner: CalendarOwner }): Calendar {
    const calendar = this.createCalendar(userId, name);
    calendar.sharedBy = { ...access.owner };
    calendar.canEdit = access.canEdit;
    return calendar;
  }

  /** Takes a calendar out of the user's mailbox (its events are the event store's to drop). */
  deleteCalendar(userId: string, id: string): boolean {
    this.#calendarUsers.delete(id);
    return this.#mailboxes.get(userId)?.calendars.delete(id) ?? false;
  }

  /** A calendar by its id alone, whoever's mailbox holds it. */
  calendarById(id: string): Calendar | undefined {
    const userId = this.#calendarUsers.get(id);
    return userId === undefined ? undefined : this.calendar(userId, id);
  }

  /** The user's calendars, in the order they were made. */
  calendars(userId: string): Calendar[] {
    return [...(this.#mailboxes.get(userId)?.calendars.values() ?? [])];
  }

  calendar(userId: string, id: string): Calendar | undefined {
    return this.#mailboxes.get(userId)?.calendars.get(id);
  }

  defaultCalendar(userId: string): Calendar | undefined {
    for (const calendar of this.#mailboxes.get(userId)?.calendars.values() ?? []) {
      if (calendar.isDefaultCalendar) return calendar;
    }
    return undefined;
  }

  /** The user's master categories, in the order they were made. */
  categories(userId: string): Category[] {
    return [...(this.#mailboxes.get(userId)?.categories.values() ?? [])];
  }

  category(userId: string, id: string): Category | undefined {
    return this.#mailboxes.get(userId)?.categories.get(id);
  }

  categoryByName(userId: string, displayName: string): Category | undefined {
    const wanted = displayName.toLowerCase();
    for (const category of this.#mailboxes.get(userId)?.categories.values() ?? []) {
      if (category.displayName.toLowerCase() === wanted) return category;
    }
    return undefined;
  }

  createCategory(userId: string, displayName: string, color: string): Category {
    const category = { id: guid(), userId, displayName, color };
    this.#mailboxOf(userId).categories.set(category.id, category);
    return category;
  }

  deleteCategory(userId: string, id: string): boolean {
    return this.#mailboxes.get(userId)?.categories.delete(id) ?? false;
  }

  reset(): void {
    this.#users.clear();
    this.#mailboxes.clear();
    this.#calendarUsers.clear();
    this.#order.clear();
  }

  snapshot() {
    return { users: this.users().map((user) => this.#userSnapshot(user)) };
  }

  /** The snapshot's entries of these users only (unknown ids left out), in the snapshot's order. */
  snapshotOf(userIds: Iterable<string>) {
    const place = (id: string) => this.#order.get(id) ?? 0;
    return {
      users: [...new Set(userIds)]
        .flatMap((id) => this.#users.get(id) ?? [])
        .sort((a, b) => place(a.id) - place(b.id))
        .map((user) => this.#userSnapshot(user)),
    };
  }

  #userSnapshot(user: MailboxUser) {
    return { ...user, calendars: this.calendars(user.id), masterCategories: this.categories(user.id) };
  }
}
