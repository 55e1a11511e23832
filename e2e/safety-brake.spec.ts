import type { Locator, Page } from '@playwright/test';
import { section, timeboxRow } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson, type Person, seriousViolations } from './helpers.ts';
import { addSandboxTask, openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

/**
 * The safety brake as a user meets it: six timeboxed tasks have their events; the timebox label is
 * deleted in Todoist, which would take all six events away at once. The sync holds the removals and
 * asks, on /sandbox and on the dashboard, naming each held task; "Keep them" leaves the events and
 * unlinks them, "Remove them" asks to confirm the count and removes them once; each held item also has
 * its own Remove (asked by its name) and Keep. The activity names the
 * tasks throughout (read live from the emulated Todoist and calendar).
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

const heldAlert = (scope: Locator) => scope.getByRole('region', { name: /^Timeboxer held back/ });

/** The sync activity's lines (not the alert's own list) whose headline reads `action`. */
const entries = (scope: Locator, action: string | RegExp) =>
  scope.getByRole('list', { name: 'Recent sync actions' }).getByRole('listitem').filter({ hasText: action });

/** Each of the six tasks is named, by its title, on exactly one line of the activity reading `action`. */
async function expectNamed(scope: Locator, action: string | RegExp) {
  for (const title of TASKS) {
    await expect(entries(scope, action).filter({ hasText: title })).toHaveCount(1, SYNCED);
  }
}

/**
 * No button of the alert is cut off, the held items' own Remove and Keep included: each label's text
 * fits in its box, and each button lies inside the card.
 */
async function expectButtonsFit(alert: Locator) {
  const cut = await alert
    .locator('.mantine-Button-label')
    .evaluateAll((labels) =>
      labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent),
    );
  expect(cut, 'button labels cut off').toEqual([]);
  const outside = await alert.evaluate((card) => {
    const box = card.getBoundingClientRect();
    return [...card.querySelectorAll('button')]
      .filter((button) => {
        const own = button.getBoundingClientRect();
        return own.left < box.left - 1 || own.right > box.right + 1;
      })
      .map((button) => button.getAttribute('aria-label') ?? button.textContent);
  });
  expect(outside, 'buttons outside the card').toEqual([]);
}

/** Each held item has its own Remove and Keep, named after it. */
async function expectItemButtons(alert: Locator, titles: readonly string[]) {
  for (const title of titles) {
    await expect(alert.getByRole('button', { name: `Remove ${title}`, exact: true })).toBeVisible(SYNCED);
    await expect(alert.getByRole('button', { name: `Keep ${title}`, exact: true })).toBeVisible();
  }
}

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
  await startSyncingThroughApi(page, person, { label: LABEL, duration: '30' });
  const sandbox = await openSandbox(page, person);
  for (const [index, content] of TASKS.entries()) {
    await addSandboxTask(page, sandbox.todoist, { content, due: tomorrowAt(8 + index), labels: [LABEL] });
  }
  await expectAllEvents(sandbox.calendar);
  await expectNamed(sandbox.activity, /Created \d events?/);

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
  // The card names every held task, each with its own choice; the activity has them on one line.
  const held = alert.getByRole('list', { name: 'Held back' });
  for (const title of TASKS) await expect(held.getByText(title)).toBeVisible(SYNCED);
  await expectItemButtons(alert, TASKS);
  await expectNamed(sandbox.activity, 'Held back removing 6 events');
  // The cause, on the card and in the mail (which names the count, never a title).
  const cause = `6 events held back after the label @${LABEL} was deleted in Todoist.`;
  await expect(alert).toContainText(cause);
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await expect(inbox).toContainText(HELD_TITLE, SYNCED);
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
      await expectNamed(activity, 'Held back removing 6 events');
      // The Status card, first on the page, says that a decision waits.
      await expect(section(page, 'Status')).toContainText('Sync waits for your decision');
      await expect(section(page, 'Status')).toContainText(
        'Your tasks and calendar events are kept in sync, except the removals that wait for your decision.',
      );
      await expectButtonsFit(alert);
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

      // From 320 px on, no label is cut off, the items' own buttons included.
      await page.setViewportSize({ width: 320, height: 700 });
      await expectItemButtons(alert, TASKS);
      await expectButtonsFit(alert);
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });

      await alert.getByRole('button', { name: 'Keep them' }).click();
      await expect(alert).toBeHidden(SYNCED);
      const kept = 'Stopped syncing 6 tasks and their events, both kept';
      await expectNamed(activity, kept);
      await expect(section(page, 'Status')).not.toContainText('Sync waits for your decision');

      sandbox = await openSandbox(page, person);
      await expectNamed(sandbox.activity, kept);
      await expect(heldAlert(sandbox.activity)).toHaveCount(0);
      await expectAllEvents(sandbox.calendar);
      for (const content of TASKS) {
        await expect(sandbox.todoist.getByRole('listitem', { name: content })).toBeVisible();
      }
      await page.screenshot({ path: `e2e-artifacts/safety-brake-kept-${width}.png`, fullPage: true });
    });

    test('one held item kept, another removed on its own, then the rest removed at once', async ({
      page,
    }) => {
      const person = newPerson('Ira', 'Itemwise');
      await holdSixRemovals(page, person);
      await page.goto('/dashboard');
      const activity = section(page, 'Sync activity');
      const alert = heldAlert(activity);
      await expect(alert).toHaveAccessibleName(HELD_TITLE, SYNCED);
      await expectItemButtons(alert, TASKS);
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `e2e-artifacts/safety-brake-items-dashboard-${width}.png` });
      await alert.screenshot({ path: `e2e-artifacts/safety-brake-items-card-${width}.png` });
      await page.setViewportSize({ width: 320, height: 700 });
      await expectButtonsFit(alert);
      await alert.screenshot({ path: 'e2e-artifacts/safety-brake-items-card-320.png' });
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });

      // Keep one: no question asked (nothing is removed); the sync unlinks it and holds the other five.
      const [kept = '', removed = '', ...rest] = TASKS;
      await alert.getByRole('button', { name: `Keep ${kept}`, exact: true }).click();
      await expect(alert).toHaveAccessibleName('Timeboxer held back removing 5 events', SYNCED);
      await expect(alert.getByRole('list', { name: 'Held back' }).getByText(kept)).toHaveCount(0);
      await expectItemButtons(alert, [removed, ...rest]);
      await expect(section(page, 'Status')).toContainText('Sync waits for your decision');

      // Remove another: asked first, by its name; Cancel leaves it held.
      await alert.getByRole('button', { name: `Remove ${removed}`, exact: true }).click();
      let confirm = page.getByRole('dialog', { name: `Remove “${removed}”?` });
      await expect(confirm).toContainText('Its event is deleted from your calendar.');
      expect(await seriousViolations(page), 'the question about one item').toEqual([]);
      await page.screenshot({ path: `e2e-artifacts/safety-brake-item-question-${width}.png` });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await alert.getByRole('button', { name: `Remove ${removed}`, exact: true }).click();
      confirm = page.getByRole('dialog', { name: `Remove “${removed}”?` });
      await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
      await expect(alert).toHaveAccessibleName('Timeboxer held back removing 4 events', SYNCED);
      await expectItemButtons(alert, rest);
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `e2e-artifacts/safety-brake-items-after-two-${width}.png` });
      await expectButtonsFit(alert);

      // The rest at once: the question names the count still held.
      await alert.getByRole('button', { name: 'Remove them' }).click();
      confirm = page.getByRole('dialog', { name: 'Remove 4 events?' });
      await expect(confirm).toContainText('4 events are deleted from your calendar.');
      await confirm.getByRole('button', { name: 'Remove 4 events' }).click();
      await expect(alert).toBeHidden(SYNCED);
      await expect(section(page, 'Status')).not.toContainText('Sync waits for your decision');
      const line = (text: string) => entries(activity, text);
      await expect(
        line('Stopped syncing 1 task and its event, both kept').filter({ hasText: kept }),
      ).toHaveCount(1, SYNCED);
      await expect(line('Removed 1 event (you chose Remove)').filter({ hasText: removed })).toHaveCount(1);
      for (const title of rest) {
        await expect(line('Removed 4 events (you chose Remove)').filter({ hasText: title })).toHaveCount(1);
      }

      // Only the kept task's event is left; every task stays in Todoist.
      const sandbox = await openSandbox(page, person);
      await expect(sandbox.calendar.getByRole('listitem', { name: kept })).toHaveCount(1, SYNCED);
      await expect(sandbox.calendar.getByRole('listitem')).toHaveCount(1);
      for (const content of TASKS) {
        await expect(sandbox.todoist.getByRole('listitem', { name: content })).toBeVisible();
      }
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
        // Removing asks first, with the count; Cancel leaves everything as it is.
        let confirm = page.getByRole('dialog', { name: 'Remove 6 events?' });
        await expect(confirm).toContainText('6 events are deleted from your calendar.');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await expect(confirm).toBeHidden();
        await expect(alert.getByRole('button', { name: 'Remove them' })).toBeVisible();
        await alert.getByRole('button', { name: 'Remove them' }).click();
        confirm = page.getByRole('dialog', { name: 'Remove 6 events?' });
        await confirm.getByRole('button', { name: 'Remove 6 events' }).click();
        await expect(sandbox.calendar.getByRole('listitem')).toHaveCount(0, SYNCED);
        await expect(sandbox.calendar.getByText('No events in the next two weeks.')).toBeVisible();
        await expect(alert).toBeHidden(SYNCED);
        const removed = 'Removed 6 events (you chose Remove)';
        await expectNamed(sandbox.activity, removed);
        // Only the events go: the tasks stay in Todoist, without the label.
        for (const content of TASKS) {
          await expect(sandbox.todoist.getByRole('listitem', { name: content })).toBeVisible();
        }

        await page.goto('/dashboard');
        const activity = section(page, 'Sync activity');
        await expectNamed(activity, removed);
        await expect(heldAlert(activity)).toHaveCount(0);
      });
    }
  });
}
