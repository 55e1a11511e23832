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
};

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

/** Users, their calendars and master categories. A new e-mail gets a fresh mailbox with the defaults. */
export class MailboxStore {
  #users = new Map<string, MailboxUser>();
  #calendars = new Map<string, Calendar>();
  #categories = new Map<string, Category>();
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
    this.#calendars.set(calendar.id, calendar);
    return calendar;
  }

  calendars(userId: string): Calendar[] {
    return [...this.#calendars.values()].filter((calendar) => calendar.userId === userId);
  }

  calendar(userId: string, id: string): Calendar | undefined {
    const calendar = this.#calendars.get(id);
    return calendar?.userId === userId ? calendar : undefined;
  }

  defaultCalendar(userId: string): Calendar | undefined {
    return this.calendars(userId).find((calendar) => calendar.isDefaultCalendar);
  }

  categories(userId: string): Category[] {
    return [...this.#categories.values()].filter((category) => category.userId === userId);
  }

  category(userId: string, id: string): Category | undefined {
    const category = this.#categories.get(id);
    return category?.userId === userId ? category : undefined;
  }

  categoryByName(userId: string, displayName: string): Category | undefined {
    const wanted = displayName.toLowerCase();
    return this.categories(userId).find((category) => category.displayName.toLowerCase() === wanted);
  }

  createCategory(userId: string, displayName: string, color: string): Category {
    const category = { id: guid(), userId, displayName, color };
    this.#categories.set(category.id, category);
    return category;
  }

  deleteCategory(userId: string, id: string): boolean {
    if (!this.category(userId, id)) return false;
    return this.#categories.delete(id);
  }

  reset(): void {
    this.#users.clear();
    this.#calendars.clear();
    this.#categories.clear();
  }

  snapshot() {
    return {
      users: this.users().map((user) => ({
        ...user,
        calendars: this.calendars(user.id),
        masterCategories: this.categories(user.id),
      })),
    };
  }
}
