import type { Locator, Page } from '@playwright/test';
import { section, startSyncing, timeboxRow } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson, type Person, seriousViolations } from './helpers.ts';
import { addSandboxTask, openSandbox, tomorrowAt } from './sandbox-helpers.ts';

/**
 * The safety brake as a user meets it: six timeboxed tasks have their events; the timebox label is
 * deleted in Todoist, which would take all six events away at once. The sync holds the removals and
 * asks, on /sandbox and on the dashboard; "Keep them" leaves the events and unlinks them, "Remove them"
 * removes them once.
 */

const LABEL = '30Minutes';
const TASKS = [
  'Outline the talk',
  'Book the venue',
  'Draft the invitation',
  'Order the catering',
  'Test the projector',
  'Print the handouts',
];
const HELD_TITLE = `Timeboxer held back removing ${TASKS.length} events`;
/** A sync run is a notification away; /sandbox re-reads every 1.5 s, the dashboard every 5 s. */
const SYNCED = { timeout: 20_000 };

const heldAlert = (scope: Locator) => scope.getByRole('status', { name: /^Timeboxer held back/ });

/** The sync activity's entries (not the alert's own list) whose action reads `action`. */
const entries = (scope: Locator, action: string) =>
  scope.getByRole('list', { name: 'Recent sync actions' }).getByRole('listitem').filter({ hasText: action });

/** The calendar panel shows exactly the six tasks' events, each once. */
async function expectAllEvents(calendar: Locator) {
  for (const title of TASKS) {
    await expect(calendar.getByRole('listitem', { name: title })).toHaveCount(1, SYNCED);
  }
  await expect(calendar.getByRole('listitem')).toHaveCount(TASKS.length);
}

/**
 * Sync on, six tasks with the timebox label added on /sandbox and their events synced; then the label
 * deleted in the sandbox's Labels section, and the held alert awaited on /sandbox.
 */
async function holdSixRemovals(page: Page, person: Person) {
  await startSyncing(page, person, { label: LABEL, duration: '30' });
  const sandbox = await openSandbox(page, person);
  for (const [index, content] of TASKS.entries()) {
    await addSandboxTask(page, sandbox.todoist, { content, due: tomorrowAt(8 + index), labels: [LABEL] });
  }
  await expectAllEvents(sandbox.calendar);
  await expect(entries(sandbox.activity, 'Created')).toHaveCount(TASKS.length, SYNCED);

  const labels = sandbox.todoist.getByRole('region', { name: 'Labels' });
  await expect(labels.getByRole('listitem').filter({ hasText: `@${LABEL}` })).toContainText(
    `${TASKS.length} open tasks`,
  );
  await labels.getByRole('button', { name: `Delete label ${LABEL}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete label?' });
  await confirm.getByRole('button', { name: 'Delete label' }).click();
  await expect(confirm).toBeHidden();
  await expect(labels.getByRole('listitem').filter({ hasText: `@${LABEL}` })).toHaveCount(0);
  for (const content of TASKS) {
    await expect(sandbox.todoist.getByRole('listitem', { name: content })).not.toContainText(`@${LABEL}`);
  }

  const alert = heldAlert(sandbox.activity);
  await expect(alert).toBeVisible(SYNCED);
  await expect(alert).toHaveAccessibleName(HELD_TITLE);
  await expect(alert.getByRole('button', { name: 'Remove them' })).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Keep them' })).toBeVisible();
  await expect(entries(sandbox.activity, 'Held back')).toHaveCount(TASKS.length);
  return sandbox;
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    });

    test('a deleted timebox label holds back the removal of six events, and “Keep them” keeps them unlinked', async ({
      page,
    }) => {
      const person = newPerson('Kim', 'Keeper');
      await holdSixRemovals(page, person);

      // Read afresh: the events are all still there while the removals are held.
      let sandbox = await openSandbox(page, person);
      await expect(heldAlert(sandbox.activity)).toHaveAccessibleName(HELD_TITLE, SYNCED);
      await expectAllEvents(sandbox.calendar);
      expect(await seriousViolations(page), 'sandbox with the held alert').toEqual([]);
      await heldAlert(sandbox.activity).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `e2e-artifacts/safety-brake-held-${width}.png`, fullPage: true });

      await page.goto('/dashboard');
      const activity = section(page, 'Sync activity');
      const alert = heldAlert(activity);
      await expect(alert).toHaveAccessibleName(HELD_TITLE, SYNCED);
      await expect(entries(activity, 'Held back')).toHaveCount(TASKS.length);
      // The timebox row says why: its label is gone from Todoist.
      await expect(timeboxRow(page, LABEL).getByRole('button', { name: /Missing in Todoist/ })).toBeVisible();
      expect(await seriousViolations(page), 'dashboard with the held alert').toEqual([]);
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `e2e-artifacts/safety-brake-held-dashboard-${width}.png` });
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
      expect(await seriousViolations(page), 'dashboard with the held alert, dark').toEqual([]);
      await page.screenshot({ path: `e2e-artifacts/safety-brake-held-dashboard-${width}-dark.png` });
      await page.emulateMedia({ colorScheme: 'light' });

      await alert.getByRole('button', { name: 'Keep them' }).click();
      await expect(alert).toBeHidden(SYNCED);
      await expect(entries(activity, 'Kept, unlinked')).toHaveCount(TASKS.length, SYNCED);

      sandbox = await openSandbox(page, person);
      await expect(entries(sandbox.activity, 'Kept, unlinked')).toHaveCount(TASKS.length, SYNCED);
      await expect(heldAlert(sandbox.activity)).toHaveCount(0);
      await expectAllEvents(sandbox.calendar);
      for (const content of TASKS) {
        await expect(sandbox.todoist.getByRole('listitem', { name: content })).toBeVisible();
      }
      await page.screenshot({ path: `e2e-artifacts/safety-brake-kept-${width}.png`, fullPage: true });
    });

    // The same flow at every width; the 375 px screen of the question is checked in the test above.
    if (width === 1280) {
      test('a deleted timebox label holds back the removal of six events, and “Remove them” removes them', async ({
        page,
      }) => {
        const person = newPerson('Remy', 'Remover');
        const sandbox = await holdSixRemovals(page, person);
        await expectAllEvents(sandbox.calendar);

        const alert = heldAlert(sandbox.activity);
        await alert.getByRole('button', { name: 'Remove them' }).click();
        await expect(sandbox.calendar.getByRole('listitem')).toHaveCount(0, SYNCED);
        await expect(sandbox.calendar.getByText('No events in the next two weeks.')).toBeVisible();
        await expect(alert).toBeHidden(SYNCED);
        await expect(entries(sandbox.activity, 'Deleted')).toHaveCount(TASKS.length, SYNCED);
        // Only the events go: the tasks stay in Todoist, without the label.
        for (const content of TASKS) {
          await expect(sandbox.todoist.getByRole('listitem', { name: content })).toBeVisible();
        }

        await page.goto('/dashboard');
        const activity = section(page, 'Sync activity');
        await expect(entries(activity, 'Deleted')).toHaveCount(TASKS.length, SYNCED);
        await expect(heldAlert(activity)).toHaveCount(0);
      });
    }
  });
}
