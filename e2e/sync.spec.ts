import { startSyncing } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, newPerson, PHONE, seriousViolations } from './helpers.ts';
import { addSandboxTask, openSandbox, tomorrowAt } from './sandbox-helpers.ts';

/**
 * The newcomer's path in the sandbox: sign in, connect Todoist and Google Calendar, add a timebox,
 * switch sync on, add a task on /sandbox and watch its event appear without reloading; move the
 * event and watch the task follow. Played at 375 px; the sandbox with the synced event is checked at
 * 1280 px too (the same path at 1280 px, through the Next step card: welcome-wizard.spec.ts).
 */
test('a task becomes an event and follows it back, at 375 px, the synced sandbox also at 1280 px', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  const person = newPerson('Nina', 'Newcomer');
  await startSyncing(page, person);

  const { todoist, calendar } = await openSandbox(page, person);
  await addSandboxTask(page, todoist, {
    content: 'Draft the newsletter',
    due: tomorrowAt(10),
    labels: ['30Minutes'],
  });

  // No reload: the page refreshes itself, and the sync is a notification away.
  const event = calendar.getByRole('listitem', { name: 'Draft the newsletter' });
  await expect(event).toBeVisible({ timeout: 15_000 });
  await atBothWidths(page, async (width) => {
    await expect(event).toBeVisible();
    await expect(event).toContainText('10:00');
    await expect(calendar.getByRole('listitem', { name: 'Draft the newsletter' })).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Sync activity' })).toContainText('Created');
    expect(await seriousViolations(page), `sandbox with sync activity, at ${width} px`).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/sync-sandbox-${width}.png`, fullPage: true });
  });

  await event.getByRole('button', { name: 'Edit Draft the newsletter' }).click();
  const eventDialog = page.getByRole('dialog', { name: 'Edit event' });
  await eventDialog.getByLabel('Start').fill(tomorrowAt(14));
  await eventDialog.getByLabel('End').fill(tomorrowAt(14).replace('T14:00', 'T14:30'));
  await eventDialog.getByRole('button', { name: 'Save event' }).click();
  const task = todoist.getByRole('listitem', { name: 'Draft the newsletter' });
  await expect(task).toContainText('14:00', { timeout: 15_000 });
  await expect(todoist.getByRole('listitem', { name: 'Draft the newsletter' })).toHaveCount(1);
});
