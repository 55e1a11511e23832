import type { Locator, Page } from '@playwright/test';
import {
  addTimeboxThroughApi,
  connectCalendar,
  connectTodoist,
  expectControlledVisible,
  section,
  timeboxRow,
} from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

/**
 * Every popover and combobox of the app, opened the way a person opens it: the target must say it is
 * expanded and the element it names must be in the page and shown.
 *
 * Each is also opened while the page paints no frame (as in a background or covered window, where the
 * browser runs no animation frame): a dropdown that waited for one would never appear, while its target
 * already said aria-expanded="true".
 */
async function holdAnimationFrames(page: Page) {
  await page.evaluate(() => {
    window.requestAnimationFrame = () => 0;
  });
}

/** A Mantine Select, Autocomplete or TagsInput: its input names the listbox of options. */
async function expectOptions(page: Page, input: Locator, option: string) {
  await input.click();
  await expectControlledVisible(page, input);
  await expect(page.getByRole('option', { name: option, exact: true })).toBeVisible();
  await input.press('Escape');
  await expect(page.getByRole('option', { name: option, exact: true })).toBeHidden();
}

for (const frames of ['painting', 'held'] as const) {
  test(`dashboard: every popover and select opens (animation frames ${frames})`, async ({ page }) => {
    test.setTimeout(60_000);
    const person = newPerson('Olive', 'Overlay');
    await signedIn(page, 'Google', person);
    await connectTodoist(page, person, { premium: true, labels: [{ name: 'deep_work' }] });
    await connectCalendar(page, person, 'Google Calendar');
    await addTimeboxThroughApi(page, 'NeverThere', 45);
    await page.reload();
    const missing = timeboxRow(page, 'NeverThere').getByRole('button', { name: /Missing in Todoist/ });
    await expect(missing).toBeVisible();

    // The label field lives in a dialog, whose own opening animation needs frames: it is opened first.
    const timeboxes = section(page, 'Time Box Settings');
    await timeboxes.getByRole('button', { name: 'Add new Timebox setting' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add new Timebox setting' });
    await expect(dialog).toBeVisible();
    if (frames === 'held') await holdAnimationFrames(page);
    await expectOptions(page, dialog.getByRole('combobox', { name: 'Label' }), 'deep_work');
    if (frames === 'held') {
      await page.reload();
      await expect(missing).toBeVisible();
      await holdAnimationFrames(page);
    } else {
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    }

    // The missing-label warning (Popover).
    await missing.click();
    await expectControlledVisible(page, missing);
    await expect(page.getByText('This label is not available on your Todoist account.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(missing).toHaveAttribute('aria-expanded', 'false');

    // The account menu in the top bar (Popover).
    const account = page.getByRole('button', { name: /account menu/ });
    await account.click();
    await expectControlledVisible(page, account);
    await expect(
      page.getByRole('dialog', { name: 'Account' }).getByRole('link', { name: 'Log out' }),
    ).toBeVisible();
    await account.click();
    await expect(account).toHaveAttribute('aria-expanded', 'false');

    // The selects of the calendar and advanced settings.
    const calendar = section(page, 'Calendar Settings');
    await expectOptions(page, calendar.getByRole('combobox', { name: 'Calendar' }), 'Work');
    await expectOptions(page, calendar.getByRole('combobox', { name: 'Event colour' }), 'Tomato');
    const advanced = section(page, 'Advanced Settings');
    await expectOptions(page, advanced.getByRole('combobox', { name: 'Event reminder' }), '15 minutes');

    // Tasks to sync (Select) is enabled with task durations on.
    const durations = timeboxes.getByRole('article', { name: 'Task durations' });
    await durations.getByRole('switch', { name: 'Use Todoist task durations' }).click();
    const tasks = durations.getByRole('combobox', { name: 'Tasks to sync' });
    await expect(tasks).toBeEnabled();
    await expectOptions(page, tasks, 'deep_work');
  });
}

test('dashboard with a Microsoft 365 calendar: the category select opens', async ({ page }) => {
  const person = newPerson('Mia', 'Microsoft');
  await signedIn(page, 'Google', person);
  await connectCalendar(page, person, 'Microsoft 365');
  await holdAnimationFrames(page);
  await expectOptions(
    page,
    section(page, 'Calendar Settings').getByRole('combobox', { name: 'Category' }),
    'No category',
  );
});

test('sandbox console: the calendar select and the labels input open (animation frames held)', async ({
  page,
}) => {
  const person = newPerson('Sam', 'Sandbox');
  await signedIn(page, 'Google', person);
  await connectTodoist(page, person, { labels: [{ name: '30Minutes' }] });
  await connectCalendar(page, person, 'Google Calendar');
  await page.goto('/sandbox');
  const calendar = page.getByRole('region', { name: 'Google Calendar' });
  const calendarSelect = calendar.getByRole('combobox', { name: 'Calendar', exact: true });
  await expect(calendarSelect).toBeVisible();
  await expectOptions(page, calendarSelect, 'Timeboxer');

  const todoist = page.getByRole('region', { name: 'Todoist' });
  await todoist.getByRole('button', { name: 'Add task' }).click();
  const taskDialog = page.getByRole('dialog', { name: 'New task' });
  await expect(taskDialog).toBeVisible();
  await holdAnimationFrames(page);
  await expectOptions(page, taskDialog.getByRole('combobox', { name: 'Labels' }), '30Minutes');

  await page.reload();
  await expect(calendarSelect).toBeVisible();
  await holdAnimationFrames(page);
  await expectOptions(page, calendarSelect, 'Timeboxer');
});
