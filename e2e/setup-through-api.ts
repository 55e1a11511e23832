import { expect, type Page, test } from '@playwright/test';
import { parseForm } from '../emulators/shared/testing/html-form.ts';
import { CONNECT_PATHS, SIGN_IN_PATHS } from '../src/shared/api/auth.schema.ts';
import type { Person } from './helpers.ts';

/**
 * The newcomer's way to a running sync (sign in, connect Todoist, add a timebox, connect Google Calendar,
 * choose the Timeboxer calendar in Basil, switch sync on) made through the same HTTP calls and emulated
 * consent forms the browser uses, without rendering each step: for the tests whose subject comes after
 * it. The steps themselves are shown and clicked through in dashboard.spec.ts, welcome-wizard.spec.ts and
 * sign-in.spec.ts (`startSyncing` in dashboard-helpers.ts). The cookies land in the page's context, so
 * the page is signed in afterwards.
 */

/** Submits an emulated sign-in or consent page (emulators/shared/sign-in-page.ts) as `person`. */
async function submitAccountForm(page: Page, pageUrl: string, html: string, person: Person) {
  const { action, fields } = parseForm(html);
  expect(action, `a form on ${pageUrl}`).toBeTruthy();
  const form = { ...fields, email: person.email, name: person.name, decision: 'continue' };
  const done = await page.request.post(new URL(action, pageUrl).toString(), { form });
  // Our callback sends the browser on to the dashboard (a failed one: to /login?error=…); the page itself
  // is the web app's, which answers only a browser's navigation.
  expect(new URL(done.url()).pathname, `${pageUrl} submitted`).toBe('/dashboard');
}

/** Follows one of our navigations to a provider's page (sign-in or connect) and confirms there. */
async function throughProvider(page: Page, path: string, person: Person): Promise<string> {
  const providerPage = await page.request.get(path);
  expect(providerPage.ok(), `${path} leads to the provider's page`).toBe(true);
  await submitAccountForm(page, providerPage.url(), await providerPage.text(), person);
  return new URL(providerPage.url()).origin;
}

/** Signs `person` in (Google unless told), the welcome wizard already seen unless `keepWelcomeWizard`. */
export async function signInThroughApi(
  page: Page,
  person: Person,
  { provider = 'Google', keepWelcomeWizard = false }: SignInOptions = {},
) {
  await throughProvider(page, provider === 'Google' ? SIGN_IN_PATHS.google : SIGN_IN_PATHS.facebook, person);
  if (!keepWelcomeWizard) await call(page, 'PATCH', '/api/welcome/onwizardseen', { wizardSeen: true });
}

type SignInOptions = { provider?: 'Google' | 'Facebook'; keepWelcomeWizard?: boolean };

/**
 * A signed-in person on the dashboard, for the tests whose subject comes after signing in (the login
 * page and the provider's page as a person uses them: `signIn` in helpers.ts, sign-in.spec.ts).
 */
export async function signedIn(
  page: Page,
  provider: 'Google' | 'Facebook',
  person: Person,
  { keepWelcomeWizard = false }: { keepWelcomeWizard?: boolean } = {},
) {
  await signInThroughApi(page, person, { provider, keepWelcomeWizard });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/** A same-origin call of the signed-in person (the app refuses cross-site writes). */
// biome-ignore lint/suspicious/noExplicitAny: each route answers its own JSON
async function call(page: Page, method: 'POST' | 'PATCH', path: string, data: object): Promise<any> {
  const origin = new URL(String(test.info().project.use.baseURL)).origin;
  const response = await page.request.fetch(path, { method, data, headers: { origin } });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return response.json();
}

/**
 * Does what `startSyncing` does, through the API; ends on the dashboard. Returns the Google Calendar
 * emulator's origin. `defaultColour`: the event colour is left at the calendar's default instead of
 * Basil, so that every new event in the calendar becomes a task; `keepWelcomeWizard`: the dashboard
 * opens on the welcome wizard.
 */
export async function startSyncingThroughApi(
  page: Page,
  person: Person,
  timebox: { label: string; duration: string | number } = { label: '30Minutes', duration: 30 },
  {
    defaultColour = false,
    keepWelcomeWizard = false,
  }: { defaultColour?: boolean; keepWelcomeWizard?: boolean } = {},
) {
  await signInThroughApi(page, person, { keepWelcomeWizard });
  await throughProvider(page, CONNECT_PATHS.todoist, person);
  await call(page, 'POST', '/api/todoist/label', { label: timebox.label, color: 'grape' });
  await call(page, 'POST', '/api/timeboxsettings', {
    label: timebox.label,
    duration: Number(timebox.duration),
  });
  const calendarOrigin = await throughProvider(page, CONNECT_PATHS.google, person);
  if (!defaultColour) await call(page, 'PATCH', '/api/calendar/color', { color: '10' });
  const user = await (await page.request.get('/api/current_user')).json();
  const calendar = user.calendarSettings.calendars.find(
    (entry: { name: string }) => entry.name === 'Timeboxer',
  );
  expect(calendar, 'the account has a Timeboxer calendar').toBeTruthy();
  await call(page, 'PATCH', '/api/calendar/id', { calendarId: calendar.id });
  await call(page, 'PATCH', '/api/settings/onsyncactive', { setting: true });
  await page.goto('/dashboard');
  return { calendarOrigin };
}
