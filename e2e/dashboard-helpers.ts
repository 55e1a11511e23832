import { expect, type Locator, type Page } from '@playwright/test';
import type { Person } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

export const section = (page: Page, name: string) => page.getByRole('region', { name });

/** A Mantine Select: opens it by its label and picks the option. */
export async function choose(scope: Page | Locator, page: Page, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

type TodoistSeed = {
  premium?: boolean;
  labels?: { name: string; color?: string }[];
  /** Projects besides the Inbox; one with a `parent` is made under it through Todoist's REST API. */
  projects?: { name: string; parent?: string }[];
};

/**
 * Connects Todoist through its emulated consent page. The account is prepared first through the
 * emulator's control API (its origin is the consent page's), so a test can choose plan and labels.
 * Returns the emulator's origin and the account's personal token, to change Todoist behind our back.
 */
export async function connectTodoist(page: Page, person: Person, seed: TodoistSeed = {}) {
  await section(page, 'Integrations').getByRole('link', { name: 'Connect Todoist' }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  const origin = new URL(page.url()).origin;
  const seeded = await page.request.post(`${origin}/_emulator/seed`, {
    data: {
      users: [
        {
          email: person.email,
          name: person.name,
          authorize: false,
          premiumStatus: seed.premium ? 'current_personal_plan' : 'not_premium',
          labels: seed.labels ?? [],
          projects: (seed.projects ?? []).filter((project) => !project.parent).map(({ name }) => ({ name })),
        },
      ],
    },
  });
  expect(seeded.ok()).toBe(true);
  const account = (await seeded.json()).users[0] as {
    personalToken: string;
    projects: { id: string; name: string }[];
  };
  const token = account.personalToken;
  const projects = Object.fromEntries(account.projects.map((project) => [project.name, project.id]));
  for (const { name, parent } of seed.projects ?? []) {
    if (!parent) continue;
    const made = await page.request.post(`${origin}/api/v1/projects`, {
      headers: { authorization: `Bearer ${token}` },
      data: { name, parent_id: projects[parent] },
    });
    expect(made.ok()).toBe(true);
    projects[name] = (await made.json()).id;
  }
  await consent(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { origin, token, projects };
}

/**
 * Connects Google Calendar or Microsoft 365 through the emulated consent page, from the Integrations row
 * (the "Next step" card offers the same links).
 */
export async function connectCalendar(
  page: Page,
  person: Person,
  provider: 'Google Calendar' | 'Microsoft 365',
) {
  await section(page, 'Integrations')
    .getByRole('link', { name: `Connect ${provider}` })
    .click();
  await consent(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Connects a service whose emulated consent page offers the signed-in e-mail: the person only confirms.
 * Returns the emulator's origin (its consent page's), to change the service behind our back.
 */
export async function connectOffered(page: Page, link: string, email: string): Promise<string> {
  await section(page, 'Integrations').getByRole('link', { name: link }).click();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  const origin = new URL(page.url()).origin;
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return origin;
}

/** Switches sync on from the Status section and confirms its preview, which names `calendar`. */
export async function switchSyncOn(page: Page, calendar: string) {
  await section(page, 'Status').getByRole('switch', { name: 'Sync active' }).click();
  const preview = page.getByRole('dialog', { name: 'Switch sync on?' });
  await expect(preview).toContainText(`Calendar: ${calendar}`);
  await preview.getByRole('button', { name: 'Switch sync on' }).click();
  await expect(preview).toBeHidden();
}

/**
 * The newcomer's way to a running sync, all on the dashboard: signed in with Google, connects Todoist,
 * adds a timebox, connects Google Calendar (same e-mail), picks the Timeboxer calendar and switches
 * sync on. Returns the Google Calendar emulator's origin.
 */
export async function startSyncing(
  page: Page,
  person: Person,
  timebox = { label: '30Minutes', duration: '30' },
) {
  await signedIn(page, 'Google', person);
  await connectOffered(page, 'Connect Todoist', person.email);
  await addTimebox(page, timebox.label, timebox.duration);
  const calendarOrigin = await connectOffered(page, 'Connect Google Calendar', person.email);
  await choose(section(page, 'Calendar Settings'), page, 'Event colour', 'Basil');
  // The colour is saved (the select is enabled again) before the calendar is chosen: chosen while the
  // colour is still on its way, the page judges by the default colour and shows the main-calendar warning.
  const colour = section(page, 'Calendar Settings').getByRole('combobox', { name: 'Event colour' });
  await expect(colour).toBeEnabled();
  await expect(colour).toHaveValue('Basil');
  await choose(section(page, 'Calendar Settings'), page, 'Calendar', 'Timeboxer');
  await switchSyncOn(page, 'Timeboxer');
  return { calendarOrigin };
}

async function consent(page: Page, person: Person) {
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Adds a timebox setting through the dialog. */
export async function addTimebox(page: Page, label: string, duration: string) {
  await page.getByRole('button', { name: 'Add new Timebox setting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add new Timebox setting' });
  await dialog.getByRole('combobox', { name: 'Label' }).fill(label);
  await dialog.getByRole('textbox', { name: 'Duration (minutes)' }).fill(duration);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

export const timeboxRow = (page: Page, label: string) =>
  section(page, 'Time Box Settings')
    .getByRole('row')
    .filter({ has: page.getByText(label, { exact: true }) });

/**
 * Saves a timebox setting through the API, which (unlike the dialog) does not create the label on
 * Todoist: the way to a setting whose label Todoist never had.
 */
export async function addTimeboxThroughApi(page: Page, label: string, duration: number) {
  const response = await page.request.post('/api/timeboxsettings', {
    data: { label, duration },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(response.ok()).toBe(true);
}

/** The trigger says it is expanded, and the element it names (aria-controls) is in the page and shown. */
export async function expectControlledVisible(page: Page, trigger: Locator) {
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  const id = await trigger.getAttribute('aria-controls');
  expect(id, 'aria-controls').toBeTruthy();
  await expect(page.locator(`[id="${id}"]`)).toBeVisible();
}
