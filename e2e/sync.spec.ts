import type { Page } from '@playwright/test';
import { addTimebox, choose, section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson, seriousViolations, signIn } from './helpers.ts';

/** `YYYY-MM-DDTHH:MM` for a datetime-local field: tomorrow at `hour` (the browser's zone). */
function tomorrowAt(hour: number): string {
  const date = new Date(Date.now() + 24 * 3600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(hour)}:00`;
}

/** The emulated consent page offers the signed-in e-mail; the newcomer only confirms. */
async function connect(page: Page, link: string, email: string) {
  await page.getByRole('link', { name: link }).click();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The newcomer's path in the sandbox: sign in, connect Todoist and Google Calendar, add a timebox,
 * switch sync on, add a task on /sandbox and watch its event appear without reloading; move the
 * event and watch the task follow.
 */
for (const width of [1280, 375]) {
  test(`a task becomes an event and follows it back, at ${width} px`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    const person = newPerson('Nina', 'Newcomer');
    await signIn(page, 'Google', person);
    await connect(page, 'Connect Todoist', person.email);
    await addTimebox(page, '30Minutes', '30');
    await connect(page, 'Connect Google Calendar', person.email);
    await choose(section(page, 'Calendar Settings'), page, 'Event colour', 'Basil');
    await choose(section(page, 'Calendar Settings'), page, 'Calendar', 'Timeboxer');
    await section(page, 'Status').getByRole('switch', { name: 'Sync active' }).click();
    const preview = page.getByRole('dialog', { name: 'Switch sync on?' });
    await expect(preview).toContainText('Calendar: Timeboxer');
    await preview.getByRole('button', { name: 'Switch sync on' }).click();
    await expect(preview).toBeHidden();

    await page.goto('/sandbox');
    await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(person.email);
    await expect(page.getByLabel('Calendar account e-mail')).toHaveValue(person.email);
    const todoist = page.getByRole('region', { name: 'Todoist' });
    const calendar = page.getByRole('region', { name: 'Google Calendar' });
    await expect(calendar.getByLabel('Calendar', { exact: true })).toHaveValue('Timeboxer');

    await todoist.getByRole('button', { name: 'Add task' }).click();
    const taskDialog = page.getByRole('dialog', { name: 'New task' });
    await taskDialog.getByLabel('Task').fill('Draft the newsletter');
    await taskDialog.getByLabel('Due').fill(tomorrowAt(10));
    await taskDialog.getByLabel('Labels').fill('30Minutes');
    await taskDialog.getByLabel('Labels').press('Enter');
    await taskDialog.getByRole('button', { name: 'Add task' }).click();

    // No reload: the page refreshes itself, and the sync is a notification away.
    const event = calendar.getByRole('listitem', { name: 'Draft the newsletter' });
    await expect(event).toBeVisible({ timeout: 15_000 });
    await expect(event).toContainText('10:00');
    await expect(calendar.getByRole('listitem', { name: 'Draft the newsletter' })).toHaveCount(1);
    await expect(page.getByRole('region', { name: 'Sync activity' })).toContainText('Created');
    expect(await seriousViolations(page), 'sandbox with sync activity').toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/sync-sandbox-${width}.png`, fullPage: true });

    await event.getByRole('button', { name: 'Edit Draft the newsletter' }).click();
    const eventDialog = page.getByRole('dialog', { name: 'Edit event' });
    await eventDialog.getByLabel('Start').fill(tomorrowAt(14));
    await eventDialog.getByLabel('End').fill(tomorrowAt(14).replace('T14:00', 'T14:30'));
    await eventDialog.getByRole('button', { name: 'Save event' }).click();
    const task = todoist.getByRole('listitem', { name: 'Draft the newsletter' });
    await expect(task).toContainText('14:00', { timeout: 15_000 });
    await expect(todoist.getByRole('listitem', { name: 'Draft the newsletter' })).toHaveCount(1);
  });
}
