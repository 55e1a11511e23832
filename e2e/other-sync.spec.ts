import type { Locator, Page } from '@playwright/test';
import { section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { finishWelcomeWizard, newPerson, type Person, seriousViolations } from './helpers.ts';
import { openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

const NOTE_TITLE = 'Todoist’s own calendar sync writes here too';

/**
 * To a running sync on the Timeboxer calendar with the default colour, so that every new event there
 * (not only those of one colour) would become a task: the difference the marker makes shows. The setup
 * goes through the API; the welcome wizard, which tells about such events, is looked at on the way.
 */
async function startSyncingEveryEvent(page: Page, person: Person) {
  await startSyncingThroughApi(
    page,
    person,
    { label: '30Minutes', duration: 30 },
    { defaultColour: true, keepWelcomeWizard: true },
  );
  const wizard = page.getByRole('dialog', { name: 'Welcome to Timeboxer' });
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(
    wizard.getByText(/Timeboxer leaves its events alone and tells you on the\s+dashboard/),
  ).toBeVisible();
  await wizard.getByRole('button', { name: 'Back' }).click();
  await finishWelcomeWizard(page);
  const user = await (await page.request.get('/api/current_user')).json();
  expect(user.calendarSettings.color, 'the calendar’s default colour').toBe('');
}

/** Adds a 30-minute event tomorrow at `hour` in the console's calendar panel. */
async function addSandboxEvent(
  page: Page,
  calendar: Locator,
  event: { summary: string; hour: number; fromTodoistSync?: boolean },
) {
  await calendar.getByRole('button', { name: 'Add event' }).click();
  const dialog = page.getByRole('dialog', { name: 'New event' });
  await dialog.getByLabel('Title').fill(event.summary);
  const start = tomorrowAt(event.hour);
  await dialog.getByLabel('Start').fill(start);
  await dialog
    .getByLabel('End')
    .fill(start.replace(/T\d\d:00$/, `T${String(event.hour).padStart(2, '0')}:30`));
  const marker = dialog.getByRole('checkbox', { name: 'Made by Todoist’s own integration' });
  if (event.fromTodoistSync) {
    await marker.check();
    await page.screenshot({ path: 'e2e-artifacts/other-sync-event-form-1280.png' });
  }
  await expect(marker).toBeChecked({ checked: event.fromTodoistSync === true });
  await dialog.getByRole('button', { name: 'Add event' }).click();
  await expect(dialog).toBeHidden();
  await expect(calendar.getByRole('listitem', { name: event.summary })).toBeVisible();
}

test('an event of Todoist’s own calendar sync never becomes a task, and the dashboard says so once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const person = newPerson('Otto', 'Othersync');
  await startSyncingEveryEvent(page, person);

  const { todoist, calendar } = await openSandbox(page, person);
  await addSandboxEvent(page, calendar, {
    summary: 'Dentist (from Todoist)',
    hour: 9,
    fromTodoistSync: true,
  });
  await addSandboxEvent(page, calendar, { summary: 'Focus block', hour: 11 });

  // The ordinary event, added after the marked one, becomes a task: the sync has read both by then.
  await expect(todoist.getByRole('listitem', { name: 'Focus block' })).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(4000);
  await expect(todoist.getByRole('listitem', { name: 'Dentist (from Todoist)' })).toHaveCount(0);
  await expect(calendar.getByRole('listitem', { name: 'Dentist (from Todoist)' })).toHaveCount(1);

  await page.goto('/dashboard');
  const activity = section(page, 'Sync activity');
  const note = activity.getByRole('status').filter({ hasText: NOTE_TITLE });
  await expect(note).toBeVisible({ timeout: 10_000 });
  await expect(note).toContainText(
    'Todoist’s Google Calendar integration also puts your tasks into this calendar',
  );
  await expect(note).toContainText('they never become tasks');
  await expect(note).toContainText('Integrations → Google Calendar');
  expect(await seriousViolations(page), 'dashboard with the note').toEqual([]);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e-artifacts/other-sync-note-1280.png' });

  await page.setViewportSize({ width: 375, height: 812 });
  await note.scrollIntoViewIfNeeded();
  expect(await seriousViolations(page), 'dashboard with the note, 375 px').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/other-sync-note-375.png' });

  await note.getByRole('button', { name: 'Got it' }).click();
  await expect(activity.getByText(NOTE_TITLE)).toHaveCount(0);
  await page.reload();
  await expect(activity.getByRole('heading', { name: 'Recent actions' })).toBeVisible();
  await expect(activity.getByText(NOTE_TITLE)).toHaveCount(0);

  // A later run that reads the marked event again (moved in the calendar) neither makes a task of it
  // nor brings the note back.
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSandbox(page, person);
  const dentist = calendar.getByRole('listitem', { name: 'Dentist (from Todoist)' });
  await dentist.getByRole('button', { name: 'Edit Dentist (from Todoist)' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit event' });
  await expect(edit.getByRole('checkbox', { name: 'Made by Todoist’s own integration' })).toHaveCount(0);
  await edit.getByLabel('Start').fill(tomorrowAt(14));
  await edit.getByLabel('End').fill(tomorrowAt(14).replace('T14:00', 'T14:30'));
  await edit.getByRole('button', { name: 'Save event' }).click();
  await expect(dentist).toContainText('14:00');
  await addSandboxEvent(page, calendar, { summary: 'Lunch walk', hour: 12 });
  await expect(todoist.getByRole('listitem', { name: 'Lunch walk' })).toBeVisible({ timeout: 15_000 });
  await expect(todoist.getByRole('listitem', { name: 'Dentist (from Todoist)' })).toHaveCount(0);
  await page.goto('/dashboard');
  await expect(activity.getByRole('heading', { name: 'Recent actions' })).toBeVisible();
  await expect(activity.getByText(NOTE_TITLE)).toHaveCount(0);
});
