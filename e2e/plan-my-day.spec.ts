import type { Locator, Page } from '@playwright/test';
import { section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, newPerson, PHONE, seriousViolations } from './helpers.ts';
import { openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

/**
 * "Plan my day" as a user meets it (issue 24): a meeting tomorrow at 09:00 in the synced calendar, a
 * task with a timebox label for tomorrow but no time; working hours every day 09:00–17:00, switched on
 * after the preview shows where the task would go; the task gets 10:00, next to the meeting, and its
 * event. Then shorter hours leave no room for another task, and the dashboard says which day it was.
 * Played at 375 px; the card, the previews and the notice are checked at 1280 px too.
 */

const card = (page: Page) => section(page, 'Plan my day');
const planSwitch = (page: Page) => card(page).getByRole('switch', { name: 'Plan my day' });
/** The switch's "Saved", beside the card's title (the hours' is beside their Save button). */
const titleStatus = (page: Page) => card(page).getByRole('status').first();

/** A date-only task through the sandbox's Todoist form ("No time (date only)"). */
async function addDatedTask(page: Page, todoist: Locator, title: string, date: string) {
  await todoist.getByRole('button', { name: 'Add task' }).click();
  const dialog = page.getByRole('dialog', { name: 'New task' });
  await dialog.getByLabel('Task').fill(title);
  await dialog.getByRole('checkbox', { name: 'No time (date only)' }).check();
  await expect(dialog.getByLabel('Due')).toHaveAttribute('type', 'date');
  await dialog.getByLabel('Due').fill(date);
  await dialog.getByLabel('Labels').fill('30Minutes');
  await dialog.getByLabel('Labels').press('Enter');
  await dialog.getByRole('button', { name: 'Add task' }).click();
  await expect(dialog).toBeHidden();
}

async function noSidewaysScrolling(page: Page, width: number) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `no sideways scrolling at ${width} px`).toBeLessThanOrEqual(clientWidth);
}

test('a dated task gets the first free time after a meeting, at 375 px, its screens also at 1280 px', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize(PHONE);
  const person = newPerson('Petra', 'Planner');
  // Events in the chosen event colour (Basil) become tasks; the sandbox's new events have the default.
  await startSyncingThroughApi(page, person);

  // The sandbox: a meeting tomorrow 09:00–10:00, then the task for tomorrow without a time.
  const tomorrow = tomorrowAt(9).slice(0, 10);
  const weekday = new Date(`${tomorrow}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    timeZone: 'UTC',
  });
  const { todoist, calendar } = await openSandbox(page, person);
  await calendar.getByRole('button', { name: 'Add event' }).click();
  const newEvent = page.getByRole('dialog', { name: 'New event' });
  await newEvent.getByLabel('Title').fill('Meeting');
  await newEvent.getByLabel('Start').fill(tomorrowAt(9));
  await newEvent.getByLabel('End').fill(tomorrowAt(10));
  await newEvent.getByRole('button', { name: 'Add event' }).click();
  await expect(newEvent).toBeHidden();
  const meeting = calendar.getByRole('listitem', { name: 'Meeting' });
  await expect(meeting).toContainText('09:00');
  await addDatedTask(page, todoist, 'Write the report', tomorrow);
  const task = todoist.getByRole('listitem', { name: 'Write the report' });
  await expect(task).toContainText('no time');

  // The dashboard: every day, 09:00–17:00.
  await page.goto('/dashboard');
  await expect(planSwitch(page)).not.toBeChecked();
  await expect(planSwitch(page)).toBeEnabled();
  const days = card(page).getByRole('group', { name: 'Working days' });
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) {
    await expect(days.getByRole('checkbox', { name: day })).toBeChecked();
  }
  // A chip's box is hidden behind its label, which is what a person clicks.
  for (const day of ['Sat', 'Sun']) {
    await days.getByText(day, { exact: true }).click();
    await expect(days.getByRole('checkbox', { name: day })).toBeChecked();
  }
  const hours = card(page).getByRole('group', { name: 'Working hours' });
  await hours.getByLabel('Start').fill('09:00');
  await hours.getByLabel('End').fill('17:00');
  // An end before the start is refused beside the field, and Save with it; Undo goes back.
  await hours.getByLabel('End').fill('08:00');
  await expect(card(page)).toContainText('Working hours must end after they start.');
  await expect(card(page).getByRole('button', { name: 'Save' })).toBeDisabled();
  await hours.getByLabel('End').fill('17:00');
  await expect(card(page).getByRole('button', { name: 'Save' })).toBeEnabled();
  await expect(card(page).getByRole('button', { name: 'Undo' })).toBeVisible();
  await page.waitForTimeout(300);
  await atBothWidths(page, async (width) => {
    await expect(planSwitch(page)).not.toBeChecked();
    await expect(card(page).getByRole('button', { name: 'Save' })).toBeEnabled();
    await expect(card(page).getByRole('button', { name: 'Undo' })).toBeVisible();
    expect(await seriousViolations(page), `Plan my day off, at ${width} px`).toEqual([]);
    await card(page).scrollIntoViewIfNeeded();
    await card(page).screenshot({ path: `e2e-artifacts/plan-card-off-${width}.png`, animations: 'disabled' });
    await noSidewaysScrolling(page, width);
  });

  // Switching on saves the days shown (still off), then previews the next 7 days.
  await planSwitch(page).click();
  const preview = page.getByRole('dialog', { name: 'Plan my day: the next 7 days' });
  await expect(preview).toBeVisible();
  await expect(preview).toContainText('10:00–10:30', { timeout: 15_000 });
  const saved = await (await page.request.get('/api/current_user')).json();
  expect(saved.calendarSettings.autoplan).toMatchObject({ active: false, days: [1, 2, 3, 4, 5, 6, 7] });
  await page.waitForTimeout(300);
  await atBothWidths(page, async (width) => {
    await expect(preview).toContainText('10:00–10:30');
    await expect(preview).toContainText('Write the report');
    await expect(preview).toContainText(`${weekday} `);
    expect(await seriousViolations(page), `the preview, at ${width} px`).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/plan-preview-${width}.png`, animations: 'disabled' });
  });
  await preview.getByRole('button', { name: 'Switch on' }).click();
  await expect(preview).toBeHidden();
  await expect(planSwitch(page)).toBeChecked();
  await expect(titleStatus(page)).toHaveText('Saved');
  await expect(planSwitch(page)).toBeEnabled();
  await atBothWidths(page, async (width) => {
    await expect(planSwitch(page)).toBeChecked();
    await card(page).screenshot({ path: `e2e-artifacts/plan-card-on-${width}.png`, animations: 'disabled' });
  });

  // The sandbox: the task got 10:00 tomorrow and its event, next to the meeting (a notification away).
  await page.goto('/sandbox');
  const { todoist: todoistAfter, calendar: calendarAfter } = await openSandbox(page, person);
  const event = calendarAfter.getByRole('listitem', { name: 'Write the report' });
  await expect(event).toContainText('10:00', { timeout: 20_000 });
  await expect(event).toContainText('10:30');
  await expect(calendarAfter.getByRole('listitem', { name: 'Meeting' })).toContainText('09:00');
  const taskAfter = todoistAfter.getByRole('listitem', { name: 'Write the report' });
  await expect(taskAfter).toContainText('10:00', { timeout: 15_000 });
  await expect(taskAfter).not.toContainText('no time');
  // The meeting, in another colour than the chosen one, never became a task.
  await expect(todoistAfter.getByRole('listitem', { name: 'Meeting' })).toHaveCount(0);

  // Hours ending at 10:30 leave no room for another task tomorrow: the dashboard says so.
  await page.goto('/dashboard');
  await card(page).getByRole('group', { name: 'Working hours' }).getByLabel('End').fill('10:30');
  await card(page).getByRole('button', { name: 'Save' }).click();
  await expect(card(page).getByRole('button', { name: 'Undo' })).toBeHidden();
  await expect(planSwitch(page)).toBeChecked();
  await page.goto('/sandbox');
  const { todoist: todoistLater } = await openSandbox(page, person);
  await addDatedTask(page, todoistLater, 'Call the bank', tomorrow);
  await page.goto('/dashboard');
  const activity = section(page, 'Sync activity');
  const note = activity.getByRole('status', { name: 'Plan my day' });
  const didNotFit = `Plan my day: 1 task (30 min) did not fit on ${weekday}.`;
  await expect(note).toContainText(didNotFit, { timeout: 20_000 });
  await page.waitForTimeout(300);
  await atBothWidths(page, async (width) => {
    await expect(note).toContainText(didNotFit);
    expect(await seriousViolations(page), `the notice, at ${width} px`).toEqual([]);
    await activity.scrollIntoViewIfNeeded();
    await activity.screenshot({ path: `e2e-artifacts/plan-notice-${width}.png`, animations: 'disabled' });
    await noSidewaysScrolling(page, width);
  });

  // Off at once; switching on again previews what would not fit (the report has its time now), and
  // Cancel leaves it off.
  await planSwitch(page).click();
  await expect(planSwitch(page)).not.toBeChecked();
  await expect(planSwitch(page)).toBeEnabled();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(titleStatus(page)).toHaveText('Saved');
  await expect(titleStatus(page)).toHaveText('', { timeout: 10_000 });
  await planSwitch(page).click();
  await expect(preview).toContainText(`1 task (30 min) did not fit on ${weekday}`, { timeout: 15_000 });
  await page.waitForTimeout(300);
  await atBothWidths(page, async (width) => {
    await expect(preview).toContainText(`1 task (30 min) did not fit on ${weekday}`);
    await expect(preview).toContainText('Call the bank');
    await expect(preview).not.toContainText('Write the report');
    expect(await seriousViolations(page), `the preview of what does not fit, at ${width} px`).toEqual([]);
    await page.screenshot({
      path: `e2e-artifacts/plan-preview-unplaced-${width}.png`,
      animations: 'disabled',
    });
  });
  await preview.getByRole('button', { name: 'Cancel' }).click();
  await expect(preview).toBeHidden();
  await expect(planSwitch(page)).not.toBeChecked();
  await expect(titleStatus(page)).toHaveText('');
  const after = await (await page.request.get('/api/current_user')).json();
  expect(after.calendarSettings.autoplan).toMatchObject({ active: false, end: '10:30' });
});
