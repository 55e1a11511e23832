import type { Locator, Page } from '@playwright/test';
import { choose, section, timeboxRow } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, newPerson, type Person, PHONE, seriousViolations } from './helpers.ts';
import { addSandboxTask, openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

/**
 * The preview of a settings change as a user meets it: while sync is on, choosing another calendar or
 * removing a timebox setting first says what it would do to what is already synced, naming the events
 * by title and time, and Cancel leaves
 * everything as it was; while sync is off, the calendar is saved at once, with no dialog. The previews are
 * played at 375 px and looked at and checked at 1280 px too.
 */

const LABEL = '30Minutes';
/** startSyncingThroughApi chooses the Timeboxer calendar; the emulated Google account also has "Work". */
const FIRST = 'Timeboxer';
const OTHER = 'Work';
/** A sync run is a notification away; /sandbox re-reads every 1.5 s. */
const SYNCED = { timeout: 20_000 };

const calendarSelect = (page: Page) =>
  section(page, 'Calendar Settings').getByRole('combobox', { name: 'Calendar', exact: true });

/** The card's "Saved", once a change is saved. */
const calendarStatus = (page: Page) => section(page, 'Calendar Settings').getByRole('status');

/** The lines of the preview, once it has been counted: each a sentence, then the items it names. */
const previewLines = (dialog: Locator) =>
  dialog.getByRole('status', { name: 'What this change does' }).getByRole('listitem');

/** Each line starts with its sentence (the items it names follow it). */
const sentences = (lines: string[]) =>
  lines.map((line) => new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

/** A line names each task by its title and time ("Plan the sprint (Thu 3 Dec, 09:00)"), from 09:00 on. */
async function expectNamed(line: Locator, tasks: string[]) {
  for (const [index, title] of tasks.entries()) {
    const time = `${String(9 + index).padStart(2, '0')}:00`;
    await expect(line).toContainText(new RegExp(`${title} \\(\\w{3} \\d{1,2} \\w{3}, ${time}\\)`));
  }
}

/** Sync on, and `tasks` added with the timebox label on /sandbox, their events awaited in the calendar panel. */
async function syncTasks(page: Page, person: Person, tasks: string[]) {
  await startSyncingThroughApi(page, person, { label: LABEL, duration: '30' });
  const sandbox = await openSandbox(page, person);
  for (const [index, content] of tasks.entries()) {
    await addSandboxTask(page, sandbox.todoist, { content, due: tomorrowAt(9 + index), labels: [LABEL] });
  }
  await expectEvents(sandbox.calendar, tasks);
  return sandbox;
}

/** The calendar panel shows exactly these tasks' events, each once. */
async function expectEvents(calendar: Locator, tasks: string[]) {
  for (const title of tasks) {
    await expect(calendar.getByRole('listitem', { name: title })).toHaveCount(1, SYNCED);
  }
  await expect(calendar.getByRole('listitem')).toHaveCount(tasks.length);
}

/** The sandbox's calendar panel switched to another calendar of the account, once it is read. */
async function showCalendar(page: Page, calendar: Locator, name: string) {
  await calendar.getByRole('combobox', { name: 'Calendar', exact: true }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect(calendar.getByLabel('Calendar', { exact: true })).toHaveValue(name);
  await expect(calendar.getByRole('list')).toHaveAttribute('aria-busy', 'false');
}

test.describe('at 375 px, the previews also at 1280 px', () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(PHONE);
  });

  test('choosing another calendar while syncing shows the events that move; Cancel keeps the calendar, Save moves them', async ({
    page,
  }) => {
    const person = newPerson('Cal', 'Mover');
    const tasks = ['Write the agenda', 'Call the printer', 'Review the budget'];
    await syncTasks(page, person, tasks);

    await page.goto('/dashboard');
    await expect(calendarSelect(page)).toHaveValue(FIRST);
    await choose(section(page, 'Calendar Settings'), page, 'Calendar', OTHER);
    const dialog = page.getByRole('dialog', { name: `Sync with ${OTHER}?` });
    await expect(dialog).toBeVisible();
    await atBothWidths(page, async (width) => {
      await expect(dialog).toContainText('Sync is on. Saving this changes what is already synced:');
      await expect(previewLines(dialog)).toHaveText(
        sentences([`${tasks.length} events will move to ${OTHER}; none is left behind.`]),
      );
      // The events that move, by their titles and times, read for the dialog.
      await expectNamed(previewLines(dialog).first(), tasks);
      // Nothing is held back by the safety brake for a move.
      await expect(dialog.getByText(/hold them back/)).toHaveCount(0);
      expect(await seriousViolations(page), `the calendar change preview, at ${width} px`).toEqual([]);
      await page.screenshot({
        path: `e2e-artifacts/change-preview-calendar-${width}.png`,
        animations: 'disabled',
      });
    });

    // Cancel: nothing saved, and nothing said; the select still names the first calendar, also when
    // read afresh.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(calendarSelect(page)).toHaveValue(FIRST);
    await expect(calendarStatus(page)).toHaveText('');
    await page.reload();
    await expect(calendarSelect(page)).toHaveValue(FIRST);

    await choose(section(page, 'Calendar Settings'), page, 'Calendar', OTHER);
    await expect(previewLines(dialog)).toHaveText(
      sentences([`${tasks.length} events will move to ${OTHER}; none is left behind.`]),
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(calendarStatus(page)).toHaveText('Saved');
    await expect(calendarSelect(page)).toHaveValue(OTHER);
    await expect(calendarSelect(page)).toBeEnabled();
    // Basil was chosen, so choosing another calendar needs no main-calendar warning.
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The sandbox opens on the calendar now synced: the three events are there, and gone from the first.
    await page.goto('/sandbox');
    const calendar = page.getByRole('region', { name: 'Google Calendar' });
    await expect(calendar.getByLabel('Calendar', { exact: true })).toHaveValue(OTHER);
    await expectEvents(calendar, tasks);
    await showCalendar(page, calendar, FIRST);
    await expect(calendar.getByRole('listitem')).toHaveCount(0, SYNCED);
    await expect(calendar.getByText('No events in the next two weeks.')).toBeVisible();
    await showCalendar(page, calendar, OTHER);
    await expectEvents(calendar, tasks);
  });

  test('removing a timebox setting while syncing says which events go and that the tasks stay', async ({
    page,
  }) => {
    const person = newPerson('Rita', 'Remover');
    const tasks = ['Plan the sprint', 'Answer the survey'];
    await syncTasks(page, person, tasks);

    await page.goto('/dashboard');
    await timeboxRow(page, LABEL)
      .getByRole('button', { name: `Remove timebox setting ${LABEL}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Remove Timebox setting' });
    await expect(dialog).toBeVisible();
    await atBothWidths(page, async (width) => {
      await expect(previewLines(dialog)).toHaveText(
        sentences(['2 events will be removed.', 'Their 2 tasks keep their dates and times in Todoist.']),
      );
      // The events that go, by name; the line about their tasks names none again.
      await expectNamed(previewLines(dialog).first(), tasks);
      await expect(previewLines(dialog).nth(1)).toHaveText(
        'Their 2 tasks keep their dates and times in Todoist.',
      );
      await expect(dialog.getByText(/hold them back/)).toHaveCount(0);
      expect(await seriousViolations(page), `the remove-timebox preview, at ${width} px`).toEqual([]);
      await page.screenshot({
        path: `e2e-artifacts/change-preview-remove-timebox-${width}.png`,
        animations: 'disabled',
      });
    });

    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(dialog).toBeHidden();
    await expect(timeboxRow(page, LABEL)).toHaveCount(0);

    const sandbox = await openSandbox(page, person);
    await expect(sandbox.calendar.getByRole('listitem')).toHaveCount(0, SYNCED);
    await expect(sandbox.calendar.getByText('No events in the next two weeks.')).toBeVisible();
    // The tasks stay in Todoist with their times (and their label: only the setting was removed).
    for (const [index, content] of tasks.entries()) {
      const task = sandbox.todoist.getByRole('listitem', { name: content });
      await expect(task).toHaveCount(1);
      await expect(task).toContainText(`${String(9 + index).padStart(2, '0')}:00`);
      await expect(task).toContainText(`@${LABEL}`);
    }
  });
});

// The same at every width, and no dialog to look at: played once, at 1280 px.
test('with sync off, choosing another calendar saves it at once, with no preview', async ({ page }) => {
  test.setTimeout(120_000);
  const person = newPerson('Otto', 'Offline');
  await startSyncingThroughApi(page, person, { label: LABEL, duration: '30' });
  const syncSwitch = section(page, 'Status').getByRole('switch', { name: 'Sync active' });
  await syncSwitch.click();
  await expect(syncSwitch).not.toBeChecked();
  await expect(syncSwitch).toBeEnabled();

  await expect(calendarSelect(page)).toHaveValue(FIRST);
  await choose(section(page, 'Calendar Settings'), page, 'Calendar', OTHER);
  await expect(calendarSelect(page)).toHaveValue(OTHER);
  await expect(calendarSelect(page)).toBeEnabled();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Saved without a word from the user: read afresh, the calendar is the other one.
  await page.reload();
  await expect(calendarSelect(page)).toHaveValue(OTHER);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
