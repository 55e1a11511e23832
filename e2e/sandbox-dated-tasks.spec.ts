import { expect, test } from './fixtures.ts';
import { newPerson, seriousViolations } from './helpers.ts';
import { openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

/**
 * With "Tasks with a date but no time: as all-day events", a timeboxed task given a date but no time
 * on /sandbox becomes an all-day event; given a time in the same form, its event becomes a timed one.
 */
test('a task with a date but no time becomes an all-day event, and a timed one once it has a time', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const person = newPerson('Dana', 'Dated');
  await startSyncingThroughApi(page, person);
  const setting = await page.request.patch('/api/settings/datedtasks', {
    data: { setting: 'allday' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(setting.ok()).toBe(true);

  const { todoist, calendar, activity } = await openSandbox(page, person);
  const tomorrow = tomorrowAt(10).slice(0, 10);
  const title = 'Pay the rent';

  // The form: ticking "No time (date only)" turns the Due field into a date.
  await todoist.getByRole('button', { name: 'Add task' }).click();
  const newTask = page.getByRole('dialog', { name: 'New task' });
  await newTask.getByLabel('Task').fill(title);
  const noTime = newTask.getByRole('checkbox', { name: 'No time (date only)' });
  await expect(noTime).not.toBeChecked();
  await expect(newTask.getByLabel('Due')).toHaveAttribute('type', 'datetime-local');
  await noTime.check();
  await expect(newTask.getByLabel('Due')).toHaveAttribute('type', 'date');
  await newTask.getByLabel('Due').fill(tomorrow);
  await newTask.getByLabel('Labels').fill('30Minutes');
  await newTask.getByLabel('Labels').press('Enter');
  await expect(newTask).toContainText('or a date when dated tasks are all-day events');
  await page.waitForTimeout(300);
  expect(await seriousViolations(page), 'task form, date only, at 1280 px').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-dated-tasks-1280.png' });
  await newTask.getByRole('button', { name: 'Add task' }).click();
  await expect(newTask).toBeHidden();

  const task = todoist.getByRole('listitem', { name: title });
  await expect(task).toContainText(/\b\w{3} \d{1,2} \w{3}, no time\b/);

  // No reload: the page refreshes itself, and the sync is a notification away.
  const event = calendar.getByRole('listitem', { name: title });
  await expect(event).toContainText('(all day)', { timeout: 15_000 });
  await expect(calendar.getByRole('listitem', { name: title })).toHaveCount(1);
  await expect(activity).toContainText('Created');
  expect(await seriousViolations(page), 'sandbox with an all-day event').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-dated-tasks-1280.png', fullPage: true });

  // At 375 px: the lists, then the edit form, which opens date-only on the task's date.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(300);
  expect(await seriousViolations(page), 'sandbox with an all-day event at 375 px').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-dated-tasks-375.png', fullPage: true });
  await task.getByRole('button', { name: `Edit ${title}` }).click();
  const editTask = page.getByRole('dialog', { name: 'Edit task' });
  const editNoTime = editTask.getByRole('checkbox', { name: 'No time (date only)' });
  await expect(editNoTime).toBeChecked();
  await expect(editTask.getByLabel('Due')).toHaveAttribute('type', 'date');
  await expect(editTask.getByLabel('Due')).toHaveValue(tomorrow);
  await page.waitForTimeout(300);
  expect(await seriousViolations(page), 'task form, date only, at 375 px').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-dated-tasks-375.png' });
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'no sideways scrolling at 375 px').toBeLessThanOrEqual(clientWidth);

  // A time: the event becomes a timed one.
  await editNoTime.uncheck();
  await expect(editTask.getByLabel('Due')).toHaveAttribute('type', 'datetime-local');
  await editTask.getByLabel('Due').fill(tomorrowAt(10));
  await editTask.getByRole('button', { name: 'Save task' }).click();
  await expect(editTask).toBeHidden();
  await expect(task).not.toContainText('no time');
  await expect(task).toContainText('10:00');
  await expect(event).toContainText('10:00', { timeout: 15_000 });
  await expect(event).not.toContainText('(all day)');
  await expect(calendar.getByRole('listitem', { name: title })).toHaveCount(1);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-dated-tasks-timed-375.png', fullPage: true });
});
