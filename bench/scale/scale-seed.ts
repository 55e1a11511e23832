import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { numericIdFrom } from '#emulators/shared/ids.ts';
import { createApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { createTokenCipher } from '#server/domain/integrations/token-cipher.ts';
import { emulatorControl } from '#server/test/sync-user-setup.ts';
import { appEnvironment } from '../app-env.ts';
import { createBenchUsers } from '../bench-users.ts';
import type { CalendarKind } from '../options.ts';
import type { EmulatorEndpoints } from '../protocol.ts';
import { ownCalendars, type TemplateCalendar } from './scale-calendars.ts';

/**
 * The scale run's users, seeded directly in the emulators and the database instead of through the app's
 * pages (10,000 sign-ins would take longer than the run). One template user is set up as a person
 * would (sign-in, both connections, timeboxes, calendar, sync on); every other user is its copy: their
 * own Todoist account with the same labels and tasks, their own calendar (Google Calendar or Microsoft
 * 365), and the template's rows in the app's tables with every identifier of the template (user,
 * e-mail, Todoist account, labels, projects, calendar account, and on Microsoft its calendars and
 * categories) replaced by theirs and their own provider tokens encrypted as the app would.
 */

/**
 * Each user's Todoist: five plain tasks and the two timebox labels, and an empty calendar: the sync
 * reads both sides and has nothing to write, as for a settled user. (Timeboxed tasks would make every
 * first run write events and bring their echoes: twice the runs before the measured wave, more than
 * the run's 15 minutes allow at 10,000 users on two cores.) The live changes make pairs.
 */
const PLAIN = 5;
const LABELS = [
  { name: '30min', color: 'blue' },
  { name: '1h', color: 'red' },
];
/** The tables holding a connected user's own rows, parents first. */
const USER_TABLES = [
  { table: 'users', key: 'id' },
  { table: 'integrations', key: 'user_id' },
  { table: 'todo_settings', key: 'user_id' },
  { table: 'timebox_settings', key: 'user_id' },
  { table: 'calendar_settings', key: 'user_id' },
] as const;
/** Users per emulator seed call and per insert. */
const BATCH = 250;

/** A scale user: who they are and their own Todoist token (the live changes act through it). */
export type ScaleUser = { userId: string; email: string; todoistToken: string };

type Row = Record<string, unknown>;
type TemplateRows = Record<string, Row[]>;

const todoistTasks = () => Array.from({ length: PLAIN }, (_, task) => ({ content: `Plain ${task}` }));

/**
 * Sets up the template user through the app (in this process, role web: nothing runs here), with a
 * calendar of `kind`.
 */
async function templateUser(endpoints: EmulatorEndpoints, databaseUrl: string, kind: CalendarKind) {
  const config = loadConfig(
    appEnvironment({
      emulators: endpoints,
      database: { kind: 'postgres', url: databaseUrl },
      maxRuns: null,
      calendar: kind,
      logLevel: 'silent',
    }),
  );
  const app = await createApp(config, { role: 'web', scheduledReconcile: false });
  try {
    const calendar = kind === 'microsoft' ? endpoints.microsoft.origin : endpoints.googleCalendar.origin;
    const origins = { todoist: endpoints.todoist.origin, calendar };
    const [user] = await createBenchUsers(app, origins, kind, {
      prefix: 'scale-template',
      count: 1,
      timeboxedTasks: 0,
      plainTasks: PLAIN,
      uncolouredEvents: 0,
      colouredEvents: 0,
      syncOn: true,
      concurrency: 1,
    });
    if (!user) throw new Error('the template user was not set up');
    return { user, cipher: createTokenCipher(config.tokenKeys) };
  } finally {
    await app.close();
  }
}

/** Every string in `value` equal to a key of `replace` becomes its value (objects and arrays walked). */
function replaced(value: unknown, replace: Map<string, string>): unknown {
  if (typeof value === 'string') return replace.get(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => replaced(item, replace));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaced(item, replace)]));
  return value;
}

type SeededTodoist = {
  id: string;
  email: string;
  accessToken: string;
  inboxProjectId: string;
  projects: { id: string; name: string }[];
  labels: { id: string; name: string }[];
};

/** The template's identifiers (by what they are) from its rows. */
function templateIdentifiers(rows: TemplateRows, email: string) {
  const [user] = rows.users ?? [];
  const todoist = rows.integrations?.find((row) => row.kind === 'todoist');
  const calendar = rows.integrations?.find((row) => row.kind === 'calendar');
  const [settings] = rows.todo_settings ?? [];
  const [calendarSettings] = rows.calendar_settings ?? [];
  if (!user || !todoist || !calendar || !settings || !calendarSettings)
    throw new Error('the template user is incomplete');
  const ownCalendar: TemplateCalendar = {
    email,
    accountId: String(calendar.account_id),
    calendars: (calendarSettings.calendars as TemplateCalendar['calendars']) ?? [],
    categories: (calendarSettings.categories as TemplateCalendar['categories']) ?? [],
  };
  return {
    userId: String(user.id),
    email,
    googleId: String(user.google_id),
    todoistAccount: String(todoist.account_id),
    calendar: ownCalendar,
    labels: (settings.labels as { id: string; name: string }[]) ?? [],
    projects: (settings.projects as { id: string; name: string }[]) ?? [],
  };
}

/**
 * Copies the template for users `from`..`from + count - 1`: their Todoist accounts (one seed call),
 * their calendars and tokens, then their rows.
 */
async function copyBatch(
  client: pg.Client,
  context: {
    kind: CalendarKind;
    endpoints: EmulatorEndpoints;
    rows: TemplateRows;
    template: ReturnType<typeof templateIdentifiers>;
    cipher: ReturnType<typeof createTokenCipher>;
    emails: string[];
  },
  from: number,
  count: number,
): Promise<ScaleUser[]> {
  const { endpoints, rows, template, cipher } = context;
  const emails = context.emails.slice(from, from + count);
  const seeded: { users: SeededTodoist[] } = await emulatorControl(endpoints.todoist.origin, 'seed', {
    users: emails.map((email) => ({
      email,
      timezone: 'Europe/Berlin',
      labels: LABELS,
      tasks: todoistTasks(),
    })),
  });
  const calendars = await ownCalendars(
    context.kind,
    endpoints,
    template.calendar,
    emails.map((email, offset) => ({ email, index: from + offset })),
  );
  const users: ScaleUser[] = [];
  const copies: Record<string, Row[]> = {};
  seeded.users.forEach((account, offset) => {
    const email = emails[offset] as string;
    const calendar = calendars[offset];
    if (!calendar) throw new Error(`${email} has no calendar`);
    const userId = randomUUID();
    const replace = new Map<string, string>([
      [template.userId, userId],
      [template.email, email],
      [template.googleId, `scale-google-${from + offset}`],
      [template.todoistAccount, account.id],
      ...calendar.replace,
    ]);
    for (const label of template.labels) {
      const own = account.labels.find((entry) => entry.name === label.name);
      if (own) replace.set(label.id, own.id);
    }
    const projects = [...account.projects, { id: account.inboxProjectId, name: 'Inbox' }];
    for (const project of template.projects) {
      const own = projects.find((entry) => entry.name === project.name);
      if (own) replace.set(project.id, own.id);
    }
    for (const { table } of USER_TABLES) {
      for (const row of rows[table] ?? []) {
        const copy = replaced(row, replace) as Row;
        if (table === 'integrations') {
          const todoist = copy.kind === 'todoist';
          copy.access_token_encrypted = cipher.encrypt(todoist ? account.accessToken : calendar.accessToken);
          const refreshToken = todoist ? null : calendar.refreshToken;
          copy.refresh_token_encrypted = refreshToken === null ? null : cipher.encrypt(refreshToken);
          copy.key_id = cipher.currentKeyId;
          copy.expires_at = todoist ? null : calendar.expiresAt;
        }
        const list = copies[table] ?? [];
        list.push(copy);
        copies[table] = list;
      }
    }
    users.push({ userId, email, todoistToken: account.accessToken });
  });
  for (const { table } of USER_TABLES) {
    await client.query(
      `insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`,
      [JSON.stringify(copies[table] ?? [])],
    );
  }
  return users;
}

/**
 * `count` e-mails (index 0 is the template's) whose Todoist accounts are distinct: the emulator derives
 * a user's id from their e-mail in seven digits, so among thousands some would share one.
 */
function distinctTodoistEmails(count: number, templateEmail: string): string[] {
  const todoistId = (email: string) => numericIdFrom(`todoist:${email}`, 8);
  const taken = new Set([todoistId(templateEmail)]);
  const emails = [templateEmail];
  for (let n = 1; emails.length < count; n++) {
    const email = `scale-${n}@bench.example`;
    if (taken.has(todoistId(email))) continue;
    taken.add(todoistId(email));
    emails.push(email);
  }
  return emails;
}

/**
 * `count` users who sync, the template first: the emulators hold their accounts and data, the database
 * their rows, and sync is on for every one (their first runs come with the first wave).
 */
export async function seedScaleUsers(
  endpoints: EmulatorEndpoints,
  databaseUrl: string,
  run: { count: number; kind: CalendarKind },
  onProgress: (seeded: number) => void,
): Promise<ScaleUser[]> {
  const { count, kind } = run;
  const { user, cipher } = await templateUser(endpoints, databaseUrl, kind);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows: TemplateRows = {};
    for (const { table, key } of USER_TABLES) {
      const result = await client.query(`select row_to_json(t) as row from ${table} t where ${key} = $1`, [
        user.userId,
      ]);
      rows[table] = result.rows.map((entry: { row: Row }) => entry.row);
    }
    const template = templateIdentifiers(rows, user.email);
    const emails = distinctTodoistEmails(count, user.email);
    const users: ScaleUser[] = [{ userId: user.userId, email: user.email, todoistToken: user.todoistToken }];
    const context = { kind, endpoints, rows, template, cipher, emails };
    for (let from = 1; from < count; from += BATCH) {
      users.push(...(await copyBatch(client, context, from, Math.min(BATCH, count - from))));
      onProgress(users.length);
    }
    await client.query('analyze');
    return users;
  } finally {
    await client.end();
  }
}
