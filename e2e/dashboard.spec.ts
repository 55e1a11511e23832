import type { Page } from '@playwright/test';
import { MESSAGES } from '../src/shared/settings/settings.schema.ts';
import {
  addTimebox,
  addTimeboxThroughApi,
  choose,
  connectCalendar,
  connectTodoist,
  expectControlledVisible,
  section,
  timeboxRow,
} from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, finishWelcomeWizard, newPerson, PHONE, seriousViolations } from './helpers.ts';
import { addSandboxTask, tomorrowAt } from './sandbox-helpers.ts';
import { signedIn } from './setup-through-api.ts';

const syncSwitch = (page: Page) => section(page, 'Status').getByRole('switch', { name: 'Sync active' });

test('connecting Todoist and Google Calendar congratulates and shows the connections', async ({ page }) => {
  test.setTimeout(60_000);
  const person = newPerson('Connie', 'Connect');
  await signedIn(page, 'Google', person);
  const status = section(page, 'Status');
  await expect(status.getByText('Todoist is not connected.')).toBeVisible();
  await expect(status.getByText('No calendar is connected.')).toBeVisible();
  const integrations = section(page, 'Integrations');
  const todoistCard = integrations.getByRole('article', { name: 'Todoist integration' });
  await expect(todoistCard.getByText('Not connected')).toBeVisible();

  // Cancelling at Todoist comes back with connect_error: an error toast, nothing connected.
  await todoistCard.getByRole('link', { name: 'Connect Todoist' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The connection failed' })).toContainText(
    'Your Todoist account was not connected.',
  );
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(todoistCard.getByText('Not connected')).toBeVisible();

  await connectTodoist(page, person);
  const toast = page.getByRole('alert').filter({ hasText: 'Congratulations!' });
  await expect(toast).toContainText('Your Todoist account was successfully connected.');
  await page.screenshot({ path: 'e2e-artifacts/dashboard-connected-toast-1280.png' });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(todoistCard.getByText('Connected', { exact: true })).toBeVisible();
  await expect(todoistCard.getByText('Free')).toBeVisible();
  await expect(status.getByText('Todoist is connected, but there is no timebox setting yet.')).toBeVisible();

  const calendarCard = integrations.getByRole('article', { name: 'Calendar integration' });
  await expect(calendarCard.getByRole('link', { name: 'Connect Microsoft 365' })).toHaveAttribute(
    'href',
    '/auth/microsoft',
  );
  await connectCalendar(page, person, 'Google Calendar');
  await expect(page.getByRole('alert').filter({ hasText: 'Congratulations!' })).toContainText(
    'Your Google Calendar account was successfully connected.',
  );
  const googleCard = integrations.getByRole('article', { name: 'Google Calendar integration' });
  await expect(googleCard.getByText('Connected', { exact: true })).toBeVisible();
  await expect(
    status.getByText('Google Calendar is connected, but no calendar is chosen yet.'),
  ).toBeVisible();
});

test('timebox settings: add, validate, edit, remove, and the missing-label row', async ({ page }) => {
  test.setTimeout(90_000);
  const person = newPerson('Tim', 'Boxer');
  await signedIn(page, 'Google', person);
  const timeboxes = section(page, 'Time Box Settings');
  await expect(timeboxes.getByRole('button', { name: 'Add new Timebox setting' })).toBeDisabled();
  const { origin, token } = await connectTodoist(page, person, {
    labels: [{ name: '15Minutes', color: 'berry_red' }],
  });

  await timeboxes.getByRole('button', { name: 'Add new Timebox setting' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add new Timebox setting' });
  const save = dialog.getByRole('button', { name: 'Save' });
  const duration = dialog.getByRole('textbox', { name: 'Duration (minutes)' });
  const label = dialog.getByRole('combobox', { name: 'Label' });
  await save.click();
  await expect(dialog.getByText(MESSAGES.durationEmpty)).toBeVisible();
  await expect(dialog.getByText(MESSAGES.labelEmpty)).toHaveCount(0); // the duration is checked first
  await expect(save).toBeDisabled();
  for (const [value, message] of [
    ['abc', MESSAGES.durationNotNumber],
    ['7.5', MESSAGES.durationNotInteger],
    ['0', MESSAGES.durationRange],
    ['1441', MESSAGES.durationRange],
  ] as const) {
    await duration.fill(value);
    await expect(dialog.getByText(message)).toBeVisible();
    await expect(save).toBeDisabled();
  }
  await duration.fill('30');
  await expect(dialog.getByText(MESSAGES.labelEmpty)).toBeVisible();
  await label.fill('x'.repeat(61));
  await expect(dialog.getByText(MESSAGES.labelTooLong)).toBeVisible();
  await label.fill('');
  await label.click();
  await expect(page.getByRole('option', { name: '15Minutes' })).toBeVisible();
  await label.fill('30Minutes');
  await expect(dialog.getByText(/not on your Todoist account yet/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Grape' }).click();
  await expect(dialog.getByRole('button', { name: 'Grape' })).toHaveAttribute('aria-pressed', 'true');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(dialog).toBeHidden();

  const row = timeboxRow(page, '30Minutes');
  await expect(row.getByRole('cell')).toHaveText(['30Minutes', '30', '0:30', '']);
  await expect(row.getByRole('button', { name: /Missing in Todoist/ })).toHaveCount(0);

  await addTimebox(page, '15Minutes', '15');
  await expect(timeboxes.getByRole('row').nth(1)).toContainText('15Minutes'); // sorted by duration

  await timeboxes.getByRole('button', { name: 'Add new Timebox setting' }).click();
  await duration.fill('20');
  await label.fill('30minutes');
  await save.click();
  await expect(dialog.getByText(MESSAGES.labelDuplicate)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: 'Edit timebox setting 30Minutes' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Timebox setting' });
  await expect(edit.getByRole('combobox', { name: 'Label' })).toHaveValue('30Minutes');
  await edit.getByRole('textbox', { name: 'Duration (minutes)' }).fill('90');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(timeboxRow(page, '30Minutes').getByRole('cell')).toHaveText(['30Minutes', '90', '1:30', '']);

  // The label disappears from Todoist behind our back: the row warns and offers to create it again.
  const labels = await (
    await page.request.get(`${origin}/api/v1/labels`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const fifteen = labels.results.find((entry: { name: string }) => entry.name === '15Minutes');
  await page.request.delete(`${origin}/api/v1/labels/${fifteen.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await page.reload();
  const missing = timeboxRow(page, '15Minutes').getByRole('button', { name: /Missing in Todoist/ });
  await expect(missing).toBeVisible();
  await missing.click();
  await expect(page.getByText('This label is not available on your Todoist account.')).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/dashboard-missing-label-1280.png' });
  await page.getByRole('button', { name: 'Create label on Todoist' }).click();
  await expect(missing).toHaveCount(0);

  await timeboxRow(page, '15Minutes')
    .getByRole('button', { name: 'Remove timebox setting 15Minutes' })
    .click();
  const remove = page.getByRole('dialog', { name: 'Remove Timebox setting' });
  const alsoTodoist = remove.getByRole('checkbox', { name: /Also delete the label/ });
  await expect(alsoTodoist).toBeEnabled();
  await alsoTodoist.check();
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(remove).toBeHidden();
  await expect(timeboxRow(page, '15Minutes')).toHaveCount(0);
  const user = await (await page.request.get('/api/current_user')).json();
  expect(user.todoSettings.labels.map((entry: { name: string }) => entry.name)).not.toContain('15Minutes');
  expect(user.todoSettings.timeboxSettings).toEqual([{ label: '30Minutes', duration: 90 }]);
});

const MISSING_LABEL_TEXT = 'This label is not available on your Todoist account.';

for (const { width, scheme } of [
  { width: 1280, scheme: 'light' },
  { width: 375, scheme: 'dark' },
] as const) {
  test(`a label never in Todoist: the warning shows on hover and focus, opens on click and creates the label, at ${width} px, ${scheme}`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.emulateMedia({ colorScheme: scheme });
    const person = newPerson('Nora', 'Never');
    await signedIn(page, 'Google', person);
    await connectTodoist(page, person, { labels: [{ name: '15Minutes' }] });
    await addTimeboxThroughApi(page, '15Minutes', 15);
    await addTimeboxThroughApi(page, 'NeverThere', 45);
    await page.reload();

    await expect(
      timeboxRow(page, '15Minutes').getByRole('button', { name: /Missing in Todoist/ }),
    ).toHaveCount(0);
    const row = timeboxRow(page, 'NeverThere');
    await expect(row).toHaveAttribute('data-missing-label', 'true');
    const missing = row.getByRole('button', { name: 'Missing in Todoist: label NeverThere' });
    const warning = page.getByText(MISSING_LABEL_TEXT);
    const create = page.getByRole('button', { name: 'Create label on Todoist' });
    await expect(missing).toHaveAttribute('aria-expanded', 'false');

    await missing.hover();
    await expectControlledVisible(page, missing);
    await expect(warning).toBeVisible();
    await page.mouse.move(1, 1);
    await expect(warning).toBeHidden();
    await expect(missing).toHaveAttribute('aria-expanded', 'false');

    await missing.focus();
    await expectControlledVisible(page, missing);
    await expect(missing).toBeFocused(); // shown on focus, without taking it
    await missing.blur();
    await expect(warning).toBeHidden();

    await missing.click();
    await expectControlledVisible(page, missing);
    await expect(create).toBeFocused();
    await page.mouse.move(1, 1);
    await expect(warning).toBeVisible(); // a click keeps it open
    await page.screenshot({ path: `e2e-artifacts/dashboard-missing-label-never-${width}-${scheme}.png` });
    await missing.click();
    await expect(warning).toBeHidden();

    await missing.click();
    await create.click();
    await expect(missing).toHaveCount(0);
    await expect(warning).toBeHidden();
    await expect(row).not.toHaveAttribute('data-missing-label');
    const user = await (await page.request.get('/api/current_user')).json();
    expect(user.todoSettings.labels.map((entry: { name: string }) => entry.name)).toContain('NeverThere');
  });
}

test('the missing-label warning works from the keyboard alone', async ({ page }) => {
  const person = newPerson('Kay', 'Board');
  await signedIn(page, 'Google', person);
  await connectTodoist(page, person);
  await addTimeboxThroughApi(page, 'NeverThere', 45);
  await page.reload();
  const missing = timeboxRow(page, 'NeverThere').getByRole('button', { name: /Missing in Todoist/ });
  const warning = page.getByText(MISSING_LABEL_TEXT);
  const create = page.getByRole('button', { name: 'Create label on Todoist' });
  await expect(missing).toBeVisible();

  // From the top of the page, with Tab only.
  await page.locator('body').focus();
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    if (await missing.evaluate((element) => element === document.activeElement)) break;
  }
  await expect(missing).toBeFocused();
  await expectControlledVisible(page, missing); // focus shows the warning

  await page.keyboard.press('Enter');
  await expect(create).toBeFocused();
  await expectControlledVisible(page, missing);
  await page.keyboard.press('Escape');
  await expect(warning).toBeHidden();
  await expect(missing).toBeFocused();

  await page.keyboard.press('Space');
  await expect(create).toBeFocused();
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(missing).toBeFocused();

  // Moving on hides it; coming back shows it again.
  await page.keyboard.press('Tab');
  await expect(warning).toBeHidden();
  await page.keyboard.press('Shift+Tab');
  await expect(missing).toBeFocused();
  await expect(warning).toBeVisible();
  await page.keyboard.press('Escape'); // hides the focus view too
  await expect(warning).toBeHidden();

  await page.keyboard.press('Enter');
  await expect(create).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(missing).toHaveCount(0);
});

test('task durations need Todoist Premium or Business and pause the timebox table', async ({ page }) => {
  test.setTimeout(60_000);
  const free = newPerson('Fred', 'Free');
  await signedIn(page, 'Google', free);
  await connectTodoist(page, free);
  const card = section(page, 'Time Box Settings').getByRole('article', { name: 'Task durations' });
  await expect(card.getByText('Requires Todoist Premium or Business')).toBeVisible();
  await expect(card.getByRole('switch', { name: 'Use Todoist task durations' })).toBeDisabled();
  await expect(card.getByRole('combobox', { name: 'Tasks to sync' })).toBeDisabled();

  await page.context().clearCookies();
  const premium = newPerson('Penny', 'Premium');
  await signedIn(page, 'Google', premium);
  await connectTodoist(page, premium, { premium: true, labels: [{ name: 'deep_work' }] });
  await addTimebox(page, '30Minutes', '30');
  await expect(card.getByText('Requires Todoist Premium or Business')).toHaveCount(0);
  const toggle = card.getByRole('switch', { name: 'Use Todoist task durations' });
  const tasks = card.getByRole('combobox', { name: 'Tasks to sync' });
  await expect(toggle).toBeEnabled();
  await expect(tasks).toBeDisabled();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(tasks).toBeEnabled();
  await tasks.click();
  const options = page.getByRole('option');
  await expect(options.first()).toHaveText('Sync all tasks with a duration');
  await page.getByRole('option', { name: 'deep_work' }).click();
  await expect(tasks).toHaveValue('deep_work');
  await expect(tasks).toBeEnabled();

  const timeboxes = section(page, 'Time Box Settings');
  await expect(timeboxes.getByRole('button', { name: 'Add new Timebox setting' })).toBeDisabled();
  await expect(timeboxes.getByRole('button', { name: 'Edit timebox setting 30Minutes' })).toBeDisabled();
  await expect(timeboxes.getByRole('button', { name: 'Remove timebox setting 30Minutes' })).toBeDisabled();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(timeboxes.getByRole('button', { name: 'Add new Timebox setting' })).toBeEnabled();

  await page.reload();
  await expect(tasks).toHaveValue('deep_work');
});

test('calendar settings: the main-calendar warning, colours, switches and advanced settings', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const person = newPerson('Cal', 'Endar');
  await signedIn(page, 'Google', person);
  const calendar = section(page, 'Calendar Settings');
  await expect(calendar.getByRole('combobox', { name: 'Calendar' })).toBeDisabled();
  await expect(
    section(page, 'Advanced Settings').getByRole('combobox', { name: 'Event reminder' }),
  ).toBeDisabled();

  await connectCalendar(page, person, 'Google Calendar');
  const warning = page.getByRole('dialog', { name: 'Strongly discouraged for your main calendar' });

  // The default colour is still chosen: choosing a calendar warns.
  await choose(calendar, page, 'Calendar', 'Work');
  await expect(warning).toBeVisible();
  // It says whether the calendar is the main one: Work is not.
  await expect(warning).toContainText(
    'Work is not your main calendar, but the events already in it may be turned into Todoist tasks.',
  );
  await page.waitForTimeout(300);
  expect(await seriousViolations(page), 'warning dialog').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/dashboard-calendar-warning-1280.png' });
  await warning.getByRole('button', { name: 'Ok, I understand' }).click();
  await expect(warning).toBeHidden();
  await expect(calendar.getByRole('combobox', { name: 'Calendar' })).toHaveValue('Work');

  await choose(calendar, page, 'Event colour', 'Tomato');
  await expect(calendar.getByRole('combobox', { name: 'Event colour' })).toHaveValue('Tomato');
  await expect(calendar.getByRole('combobox', { name: 'Event colour' })).toBeEnabled();
  await choose(calendar, page, 'Calendar', 'Timeboxer');
  await expect(calendar.getByRole('combobox', { name: 'Calendar' })).toBeEnabled();
  await expect(warning).toBeHidden();
  await choose(calendar, page, 'Event colour', 'Default Calendar Color');
  await expect(warning).toBeVisible();
  await warning.getByRole('button', { name: 'Ok, I understand' }).click();

  for (const name of ['Private events', 'Todoist link in description']) {
    const toggle = calendar.getByRole('switch', { name });
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(toggle).toBeChecked();
    await expect(toggle).toBeEnabled();
  }

  const advanced = section(page, 'Advanced Settings');
  await choose(advanced, page, 'Event reminder', '15 minutes');
  await expect(advanced.getByRole('combobox', { name: 'Event reminder' })).toBeEnabled();
  await advanced.getByRole('radio', { name: 'Remove calendar event' }).click();
  await expect(advanced.getByRole('radio', { name: 'Remove calendar event' })).toBeChecked();
  await expect(advanced.getByRole('radio', { name: 'Remove calendar event' })).toBeEnabled();
  const preComplete = advanced.getByRole('switch', { name: /completed before the event started/ });
  await preComplete.click();
  await expect(preComplete).toBeChecked();
  await expect(preComplete).toBeEnabled();

  await page.reload();
  await expect(calendar.getByRole('combobox', { name: 'Calendar' })).toHaveValue('Timeboxer');
  await expect(calendar.getByRole('combobox', { name: 'Event colour' })).toHaveValue(
    'Default Calendar Color',
  );
  await expect(calendar.getByRole('switch', { name: 'Private events' })).toBeChecked();
  await expect(advanced.getByRole('combobox', { name: 'Event reminder' })).toHaveValue('15 minutes');
  await expect(advanced.getByRole('radio', { name: 'Remove calendar event' })).toBeChecked();
  await expect(preComplete).toBeChecked();
});

// No ignoreHTTPSErrors: the browser only meets the emulator's plain-HTTP consent page.
test.describe('with Microsoft 365', () => {
  test('categories replace event colours, and no category warns', async ({ page }) => {
    test.setTimeout(60_000);
    const person = newPerson('Mia', 'Microsoft');
    await signedIn(page, 'Google', person);
    await connectCalendar(page, person, 'Microsoft 365');
    await expect(page.getByRole('alert').filter({ hasText: 'Congratulations!' })).toContainText(
      'Your Microsoft account was successfully connected.',
    );
    const calendar = section(page, 'Calendar Settings');
    await expect(calendar.getByRole('combobox', { name: 'Event colour' })).toHaveCount(0);
    const warning = page.getByRole('dialog', { name: 'Strongly discouraged for your main calendar' });
    await choose(calendar, page, 'Calendar', 'Calendar (main)');
    await expect(warning).toBeVisible();
    await warning.getByRole('button', { name: 'Ok, I understand' }).click();
    await choose(calendar, page, 'Category', 'Blue category');
    await expect(calendar.getByRole('combobox', { name: 'Category' })).toHaveValue('Blue category');
    await expect(warning).toBeHidden();
    await expect(calendar.getByRole('combobox', { name: 'Category' })).toBeEnabled();
    await choose(calendar, page, 'Category', 'No category');
    await expect(warning).toBeVisible();
  });
});

test('the sync switch turns on only when everything is in place, and off at any time', async ({ page }) => {
  test.setTimeout(60_000);
  const person = newPerson('Sy', 'Nc');
  await signedIn(page, 'Google', person);
  const toggle = syncSwitch(page);
  await expect(toggle).toBeDisabled();
  await expect(section(page, 'Status')).toContainText(
    'To switch sync on, connect Todoist, add at least one timebox setting and connect Google Calendar or Microsoft 365.',
  );
  await connectTodoist(page, person);
  await addTimebox(page, '30Minutes', '30');
  await expect(toggle).toBeDisabled();
  await connectCalendar(page, person, 'Google Calendar');
  await expect(toggle).toBeDisabled();
  await expect(section(page, 'Status')).toContainText(
    'To switch sync on, choose a calendar in the Calendar Settings.',
  );
  await choose(section(page, 'Calendar Settings'), page, 'Event colour', 'Basil');
  await choose(section(page, 'Calendar Settings'), page, 'Calendar', 'Timeboxer');
  await expect(toggle).toBeEnabled();
  await toggle.click();
  // Switching on shows the preview first (GET /api/sync/preview); switching off is immediate.
  const preview = page.getByRole('dialog', { name: 'Switch sync on?' });
  await expect(preview).toContainText('Calendar: Timeboxer');
  await expect(preview).toContainText(/\d+ tasks? will become (an event|events) in Timeboxer/);
  await expect(preview.getByRole('alert')).toHaveCount(0);
  await preview.getByRole('button', { name: 'Switch sync on' }).click();
  await expect(preview).toBeHidden();
  await expect(toggle).toBeChecked();
  await expect(
    section(page, 'Status').getByText(/connected and syncs with the calendar “Timeboxer”/),
  ).toBeVisible();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeEnabled();
});

test('switching sync on with the main calendar and its default colour shows the preview warning', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const person = newPerson('Maya', 'Main');
  await signedIn(page, 'Google', person);
  await connectTodoist(page, person);
  await addTimebox(page, '30Minutes', '30');
  await connectCalendar(page, person, 'Google Calendar');
  // Google names the main calendar after the account; the picker marks it.
  await choose(section(page, 'Calendar Settings'), page, 'Calendar', `${person.email} (main)`);
  await page
    .getByRole('dialog', { name: 'Strongly discouraged for your main calendar' })
    .getByRole('button', { name: 'Ok, I understand' })
    .click();
  // A timeboxed task waits in Todoist: the preview counts it and names it.
  await page.goto('/sandbox');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(person.email);
  await addSandboxTask(page, page.getByRole('region', { name: 'Todoist' }), {
    content: 'Water the plants',
    due: tomorrowAt(9),
    labels: ['30Minutes'],
  });
  await page.goto('/dashboard');

  const toggle = syncSwitch(page);
  await toggle.click();
  const preview = page.getByRole('dialog', { name: 'Switch sync on?' });
  await expect(preview).toContainText(`Calendar: ${person.email}`);
  await expect(preview.getByRole('listitem').first()).toContainText(
    /^1 task will become an event in .+Water the plants \(\w{3} \d{1,2} \w{3}, 09:00(, floating)?\)$/,
  );
  await expect(preview).toContainText(/\d+ events? will become (a task|tasks)/);
  await expect(preview.getByRole('alert')).toContainText(
    'every existing event from today on becomes a Todoist task',
  );
  await page.waitForTimeout(300); // the opening transition
  expect(await seriousViolations(page), 'preview dialog').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/dashboard-sync-preview-1280.png' });
  await preview.getByRole('button', { name: 'Cancel' }).click();
  await expect(preview).toBeHidden();
  await expect(toggle).not.toBeChecked();
});

test('removing an integration asks first, then says it is removed', async ({ page }) => {
  test.setTimeout(60_000);
  const person = newPerson('Remy', 'Remove');
  await signedIn(page, 'Google', person);
  await connectTodoist(page, person);
  const card = section(page, 'Integrations').getByRole('article', { name: 'Todoist integration' });

  await card.getByRole('button', { name: 'Remove Todoist integration' }).click();
  const confirm = page.getByRole('dialog', {
    name: 'Do you really want to remove your Todoist integration?',
  });
  await expect(confirm).toContainText('All your synchronisations will stop working.');
  await confirm.getByRole('button', { name: 'No, cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();

  await card.getByRole('button', { name: 'Remove Todoist integration' }).click();
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(confirm).toBeHidden();
  const toast = page.getByRole('alert').filter({ hasText: 'Integration removed' });
  await expect(toast).toContainText('You removed your Todoist integration');
  await expect(card.getByText('Not connected')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Connect Todoist' })).toBeVisible();

  await connectCalendar(page, person, 'Google Calendar');
  const google = section(page, 'Integrations').getByRole('article', { name: 'Google Calendar integration' });
  await google.getByRole('button', { name: 'Remove Google Calendar integration' }).click();
  await page
    .getByRole('dialog', { name: 'Do you really want to remove your Google Calendar integration?' })
    .getByRole('button', { name: 'Yes' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'Integration removed' })).toContainText(
    'You removed your Google Calendar integration',
  );
  const calendarCard = section(page, 'Integrations').getByRole('article', { name: 'Calendar integration' });
  await expect(calendarCard.getByRole('link', { name: 'Connect Google Calendar' })).toBeVisible();
  await expect(section(page, 'Calendar Settings').getByRole('combobox', { name: 'Calendar' })).toBeDisabled();
});

// Played at 375 px; every screen is measured, checked and photographed at 1280 px too.
test('the dashboard fits 375 px and 1280 px, connected or not, and is accessible', async ({ page }) => {
  test.setTimeout(60_000);
  const height = 900;
  await page.setViewportSize({ width: PHONE.width, height });
  const person = newPerson('Vera', 'Widths');
  await signedIn(page, 'Google', person, { keepWelcomeWizard: true });
  const wizard = page.getByRole('dialog', { name: 'Welcome to Timeboxer' });
  await expect(wizard).toBeVisible();
  await page.waitForTimeout(300);
  await atBothWidths(
    page,
    async (width) => {
      await expect(wizard).toBeVisible();
      await page.screenshot({ path: `e2e-artifacts/dashboard-wizard-${width}.png` });
    },
    { height },
  );
  await finishWelcomeWizard(page);
  const fits = async (tag: string, width: number) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${tag} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `e2e-artifacts/dashboard-${tag}-${width}.png`, fullPage: true });
  };
  await atBothWidths(
    page,
    async (width) => {
      await fits('not-connected', width);
      expect(await seriousViolations(page), `not connected, at ${width} px`).toEqual([]);
    },
    { height },
  );

  await connectTodoist(page, person, { labels: [{ name: '1_h', color: 'blue' }] });
  await connectCalendar(page, person, 'Google Calendar');
  await addTimebox(page, '15Minutes', '15');
  await addTimebox(page, '1_h', '60');
  await page.reload();
  await expect(section(page, 'Calendar Settings').getByRole('combobox', { name: 'Calendar' })).toBeEnabled();
  await atBothWidths(
    page,
    async (width) => {
      await fits('connected', width);
      await section(page, 'Time Box Settings').screenshot({
        path: `e2e-artifacts/dashboard-timeboxes-${width}.png`,
      });
      expect(await seriousViolations(page), `connected, at ${width} px`).toEqual([]);
    },
    { height },
  );

  await page.getByRole('button', { name: 'Add new Timebox setting' }).click();
  await expect(page.getByRole('dialog', { name: 'Add new Timebox setting' })).toBeVisible();
  await page.waitForTimeout(300);
  await atBothWidths(
    page,
    async (width) => {
      expect(await seriousViolations(page), `timebox dialog, at ${width} px`).toEqual([]);
      await page.screenshot({ path: `e2e-artifacts/dashboard-timebox-dialog-${width}.png` });
    },
    { height },
  );
});

test('the connected dashboard is accessible in the dark scheme', async ({ page }) => {
  test.setTimeout(60_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  const person = newPerson('Dora', 'Dark');
  await signedIn(page, 'Google', person);
  await connectTodoist(page, person);
  await addTimebox(page, '25Minutes', '25');
  await page.reload();
  await expect(timeboxRow(page, '25Minutes')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/dashboard-dark-1280.png', fullPage: true });
});
