import { describe, expect, it } from 'vitest';
import { MailboxStore } from './microsoft.mailbox-store.ts';
import { untouchable } from './microsoft.store-testing.ts';

/** A store with `others` mailboxes whose calendars and categories may not be read, then Ada's. */
function storeWithOthers(others: number) {
  const mailboxes = new MailboxStore('UTC');
  for (let index = 0; index < others; index += 1) {
    const other = mailboxes.ensureUser({ email: `other${index}@example.com` });
    for (const calendar of mailboxes.calendars(other.id)) {
      untouchable(calendar, 'id', 'userId', 'name', 'isDefaultCalendar');
    }
    for (const category of mailboxes.categories(other.id)) {
      untouchable(category, 'id', 'userId', 'displayName');
    }
  }
  const ada = mailboxes.ensureUser({
    email: 'Ada@Example.com',
    calendars: [{ name: 'Main' }, { name: 'Timeboxer', color: 'lightBlue' }],
    categories: [
      { displayName: 'Deep work', color: 'preset0' },
      { displayName: 'Admin', color: 'preset1' },
    ],
  });
  return { mailboxes, ada };
}

describe('MailboxStore', () => {
  it("finds one user's calendars and categories without reading any other user's", () => {
    const { mailboxes, ada } = storeWithOthers(50);
    const [main, timeboxer] = mailboxes.calendars(ada.id);
    expect([main?.name, timeboxer?.name]).toEqual(['Main', 'Timeboxer']);
    expect(mailboxes.defaultCalendar(ada.id)).toBe(main);
    expect(mailboxes.calendar(ada.id, timeboxer?.id ?? '')).toBe(timeboxer);
    expect(mailboxes.categories(ada.id).map((category) => category.displayName)).toEqual([
      'Deep work',
      'Admin',
    ]);
    const admin = mailboxes.categoryByName(ada.id, 'ADMIN');
    expect(admin?.displayName).toBe('Admin');
    expect(mailboxes.category(ada.id, admin?.id ?? '')).toBe(admin);
    expect(mailboxes.categoryByName(ada.id, 'Red category')).toBeUndefined();
    expect(mailboxes.deleteCategory(ada.id, admin?.id ?? '')).toBe(true);
    expect(mailboxes.categories(ada.id).map((category) => category.displayName)).toEqual(['Deep work']);

    const [seeded] = mailboxes.snapshotOf([ada.id]).users;
    expect(seeded).toMatchObject({ id: ada.id, email: 'ada@example.com' });
    expect(seeded?.calendars).toEqual([main, timeboxer]);
  });

  it("does not hand out one user's records for another's id", () => {
    const mailboxes = new MailboxStore('UTC');
    const ada = mailboxes.ensureUser({ email: 'ada@example.com' });
    const grace = mailboxes.ensureUser({ email: 'grace@example.com' });
    const adas = mailboxes.defaultCalendar(ada.id);
    const category = mailboxes.categories(ada.id)[0];
    expect(mailboxes.calendar(grace.id, adas?.id ?? '')).toBeUndefined();
    expect(mailboxes.category(grace.id, category?.id ?? '')).toBeUndefined();
    expect(mailboxes.deleteCategory(grace.id, category?.id ?? '')).toBe(false);
    expect(mailboxes.categories(ada.id)).toHaveLength(6);
    expect(mailboxes.calendars('nobody')).toEqual([]);
    expect(mailboxes.defaultCalendar('nobody')).toBeUndefined();
  });

  it('keeps the order records were made in, in lists and in the state', () => {
    const mailboxes = new MailboxStore('UTC');
    const ada = mailboxes.ensureUser({ email: 'ada@example.com' });
    const grace = mailboxes.ensureUser({ email: 'grace@example.com' });
    const added = mailboxes.createCalendar(ada.id, 'Later');
    mailboxes.createCategory(ada.id, 'Last', 'preset2');
    expect(mailboxes.calendars(ada.id).map((calendar) => calendar.name)).toEqual([
      'Calendar',
      'Timeboxer',
      'Later',
    ]);
    expect(mailboxes.categories(ada.id).at(-1)?.displayName).toBe('Last');
    const state = mailboxes.snapshot().users;
    expect(state.map((user) => user.email)).toEqual(['ada@example.com', 'grace@example.com']);
    expect(state[0]?.calendars.at(-1)).toBe(added);
    expect(state[1]?.masterCategories).toEqual(mailboxes.categories(grace.id));
  });

  it("answers a seed with the seeded users' state, in the state's order, once each", () => {
    const mailboxes = new MailboxStore('UTC');
    const ada = mailboxes.ensureUser({ email: 'ada@example.com' });
    const alan = mailboxes.ensureUser({ email: 'alan@example.com' });
    const grace = mailboxes.ensureUser({ email: 'grace@example.com' });
    const { users } = mailboxes.snapshotOf([grace.id, 'nobody', ada.id, grace.id]);
    expect(users.map((user) => user.email)).toEqual(['ada@example.com', 'grace@example.com']);
    expect(users).toEqual(mailboxes.snapshot().users.filter((user) => user.id !== alan.id));
  });

  it('forgets every mailbox on reset', () => {
    const mailboxes = new MailboxStore('UTC');
    const ada = mailboxes.ensureUser({ email: 'ada@example.com' });
    mailboxes.reset();
    expect(mailboxes.calendars(ada.id)).toEqual([]);
    expect(mailboxes.categories(ada.id)).toEqual([]);
    expect(mailboxes.snapshot().users).toEqual([]);
    const again = mailboxes.ensureUser({ email: 'ada@example.com' });
    expect(again.id).toBe(ada.id);
    expect(mailboxes.calendars(ada.id)).toHaveLength(2);
  });
});
