import type { Locator, Page } from '@playwright/test';
import {
  addTimebox,
  choose,
  connectOffered,
  connectTodoist,
  section,
  switchSyncOn,
} from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, axeOf, newPerson, type Person, PHONE, seriousViolations } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

/**
 * The What syncs card as a user meets it (docs/product-rules.md §10 "Projects"): their Todoist projects
 * listed, some chosen and saved (previewed first while sync is on), where new tasks from events go, the
 * warning once a chosen project is archived in Todoist, and tasks with a date but no time as all-day events.
 * Played at 375 px; every screen looked at is checked and photographed at 1280 px too.
 */

const card = (page: Page) => section(page, 'What syncs');
const checklist = (page: Page) => card(page).getByRole('group', { name: 'Chosen projects' });
const projectBox = (page: Page, name: string) => checklist(page).getByRole('checkbox', { name, exact: true });
const eventProject = (page: Page) =>
  card(page).getByRole('combobox', { name: 'New tasks from events go to', exact: true });
const saveProjects = (page: Page) => card(page).getByRole('button', { name: 'Save projects' });
const datedTasks = (page: Page) =>
  card(page).getByRole('radiogroup', { name: 'Tasks with a date but no time' });
const datedTasksOption = (page: Page, name: 'Left alone' | 'As all-day events') =>
  datedTasks(page).getByRole('radio', { name, exact: true });

async function savedDatedTasks(page: Page): Promise<string> {
  const response = await page.request.get('/api/current_user');
  expect(response.ok()).toBe(true);
  return (await response.json()).todoSettings.datedTasks;
}

/** Signed in, Todoist (with projects) and Google Calendar connected, a timebox, the calendar chosen, sync on. */
async function syncingWithProjects(page: Page, person: Person) {
  await signedIn(page, 'Google', person);
  const todoist = await connectTodoist(page, person, {
    projects: [
      { name: 'Work' },
      { name: 'Home' },
      { name: 'Old plans' },
      { name: 'Clients', parent: 'Work' },
    ],
  });
  await addTimebox(page, '30Minutes', '30');
  await connectOffered(page, 'Connect Google Calendar', person.email);
  const calendar = section(page, 'Calendar Settings');
  await choose(calendar, page, 'Event colour', 'Basil');
  await expect(calendar.getByRole('combobox', { name: 'Event colour' })).toHaveValue('Basil');
  await expect(calendar.getByRole('combobox', { name: 'Event colour' })).toBeEnabled();
  await choose(calendar, page, 'Calendar', 'Timeboxer');
  await switchSyncOn(page, 'Timeboxer');
  return todoist;
}

/** The card alone, scrolled into view. */
async function screenshots(page: Page, name: string) {
  await card(page).scrollIntoViewIfNeeded();
  await card(page).screenshot({ path: `e2e-artifacts/what-syncs-${name}.png`, animations: 'disabled' });
}

/** Every axe violation inside the card and the Status section, whatever its impact, as readable lines. */
async function violationsAround(page: Page): Promise<string[]> {
  const results = await axeOf(page).include('#what-syncs').include('section[aria-label="Status"]').analyze();
  return results.violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.html).join(', ')}`,
  );
}

async function expectChecked(boxes: Locator[], checked: boolean) {
  for (const box of boxes) {
    if (checked) await expect(box).toBeChecked();
    else await expect(box).not.toBeChecked();
  }
}

test.describe('at 375 px, its screens also at 1280 px', () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(PHONE);
  });

  test('chooses projects (previewed while syncing), sends new tasks to one, and names a chosen project archived in Todoist', async ({
    page,
  }) => {
    const person = newPerson('Petra', 'Projects');
    const todoist = await syncingWithProjects(page, person);

    // All projects by default; the user's projects show once "Chosen projects" is picked.
    await expect(card(page).getByRole('radio', { name: 'All projects' })).toBeChecked();
    await expect(checklist(page)).toHaveCount(0);
    await expect(saveProjects(page)).toBeDisabled();
    await expect(eventProject(page)).toHaveValue('Inbox');
    await card(page).getByRole('radio', { name: 'Chosen projects' }).check();
    const names = ['Inbox', 'Work', 'Clients', 'Home', 'Old plans'];
    await expect(checklist(page).getByRole('checkbox')).toHaveCount(names.length);
    for (const name of names) await expect(projectBox(page, name)).not.toBeChecked();
    await expect(card(page).getByText('Choose at least one project.')).toBeVisible();
    await expect(saveProjects(page)).toBeDisabled();

    // Work brings its sub-project Clients along: ticked, not to be unticked on its own.
    await projectBox(page, 'Work').check();
    await expect(projectBox(page, 'Clients')).toBeChecked();
    await expect(projectBox(page, 'Clients')).toBeDisabled();
    await expect(checklist(page).getByText('Included with “Work”')).toBeVisible();
    await projectBox(page, 'Old plans').check();
    await atBothWidths(page, async (width) => {
      await expect(checklist(page).getByText('Included with “Work”')).toBeVisible();
      await expectChecked(
        ['Work', 'Clients', 'Old plans'].map((name) => projectBox(page, name)),
        true,
      );
      await screenshots(page, `draft-${width}`);
    });

    // Sync is on: the change is previewed first, and saved on confirmation.
    await saveProjects(page).click();
    const dialog = page.getByRole('dialog', { name: 'Sync only these 2 projects?' });
    await expect(dialog).toBeVisible();
    await atBothWidths(page, async (width) => {
      await expect(dialog.getByRole('status', { name: 'What this change does' })).toContainText(
        'Nothing already synced changes.',
      );
      expect(await seriousViolations(page), `the projects change preview, at ${width} px`).toEqual([]);
      await page.screenshot({
        path: `e2e-artifacts/what-syncs-preview-${width}.png`,
        animations: 'disabled',
      });
    });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(saveProjects(page)).toBeDisabled();

    // Read afresh, the choice is there.
    await page.reload();
    await expect(card(page).getByRole('radio', { name: 'Chosen projects' })).toBeChecked();
    await expectChecked(
      ['Work', 'Clients', 'Old plans'].map((name) => projectBox(page, name)),
      true,
    );
    await expectChecked(
      ['Inbox', 'Home'].map((name) => projectBox(page, name)),
      false,
    );
    await expect(saveProjects(page)).toBeDisabled();
    // An edit can be undone before it is saved.
    await projectBox(page, 'Home').check();
    await expect(saveProjects(page)).toBeEnabled();
    await card(page).getByRole('button', { name: 'Undo' }).click();
    await expect(projectBox(page, 'Home')).not.toBeChecked();
    await expect(saveProjects(page)).toBeDisabled();

    // The Inbox no longer syncs, so new tasks go to the first project that does; only those are offered.
    await expect(eventProject(page)).toHaveValue('Work');
    await expect(card(page).getByText('Your Inbox does not sync, so new tasks go to “Work”.')).toBeVisible();
    await eventProject(page).click();
    await expect(page.getByRole('option')).toHaveText(['Work', 'Clients', 'Old plans']);
    await page.screenshot({ path: 'e2e-artifacts/what-syncs-select-375.png', animations: 'disabled' });
    await page.getByRole('option', { name: 'Old plans', exact: true }).click();
    await expect(eventProject(page)).toHaveValue('Old plans');
    await expect(eventProject(page)).toBeEnabled();
    await page.reload();
    await expect(eventProject(page)).toHaveValue('Old plans');
    await expect(card(page).getByText(/does not sync/)).toHaveCount(0);
    await atBothWidths(page, async (width) => {
      await expect(eventProject(page)).toHaveValue('Old plans');
      expect(await seriousViolations(page), `the dashboard with the What syncs card, at ${width} px`).toEqual(
        [],
      );
      expect(await violationsAround(page), `the card, any impact, at ${width} px`).toEqual([]);
      await screenshots(page, `saved-${width}`);
      if (width === 1280) {
        // The select's options at this width too (closed again without a choice).
        await eventProject(page).click();
        await expect(page.getByRole('option')).toHaveText(['Work', 'Clients', 'Old plans']);
        await page.screenshot({ path: 'e2e-artifacts/what-syncs-select-1280.png', animations: 'disabled' });
        await page.keyboard.press('Escape');
        await expect(page.getByRole('option')).toHaveCount(0);
        await expect(eventProject(page)).toHaveValue('Old plans');
      }
    });

    // Old plans archived in Todoist: once the dashboard has read the projects again, it is named.
    const archived = await page.request.post(
      `${todoist.origin}/api/v1/projects/${todoist.projects['Old plans']}/archive`,
      { headers: { authorization: `Bearer ${todoist.token}` } },
    );
    expect(archived.ok()).toBe(true);
    await page.reload();
    const warning = '“Old plans” was archived or deleted in Todoist: its tasks no longer sync.';
    const status = section(page, 'Status');
    await atBothWidths(page, async (width) => {
      await expect(card(page).getByRole('status').filter({ hasText: warning })).toContainText(
        'Choose again below.',
      );
      await expect(status.getByText(warning)).toBeVisible();
      await expect(status.getByRole('link', { name: 'Choose again in What syncs' })).toHaveAttribute(
        'href',
        '#what-syncs',
      );
      // Gone from the list; new tasks go back to Work, and saving again is offered.
      await expect(projectBox(page, 'Old plans')).toHaveCount(0);
      await expect(eventProject(page)).toHaveValue('Work');
      await expect(
        card(page).getByText('The project you chose is no longer in Todoist, so new tasks go to “Work”.'),
      ).toBeVisible();
      await expect(saveProjects(page)).toBeEnabled();
      await expect(card(page).getByRole('button', { name: 'Undo' })).toHaveCount(0);
      expect(
        await seriousViolations(page),
        `the dashboard with the missing-project warning, at ${width} px`,
      ).toEqual([]);
      expect(await violationsAround(page), `the card and Status, any impact, at ${width} px`).toEqual([]);
      await screenshots(page, `missing-${width}`);
      // And in the dark scheme.
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await seriousViolations(page), `the warning in the dark scheme, at ${width} px`).toEqual([]);
      expect(await violationsAround(page), `the card and Status in the dark scheme, at ${width} px`).toEqual(
        [],
      );
      await screenshots(page, `missing-dark-${width}`);
      await page.emulateMedia({ colorScheme: 'light' });
      await status.screenshot({
        path: `e2e-artifacts/what-syncs-status-${width}.png`,
        animations: 'disabled',
      });
    });

    // Choosing again: saved, the warning is gone.
    await saveProjects(page).click();
    const again = page.getByRole('dialog', { name: 'Sync only “Work”?' });
    await again.getByRole('button', { name: 'Save' }).click();
    await expect(again).toBeHidden();
    await expect(card(page).getByText(warning)).toHaveCount(0);
    await expect(status.getByText(warning)).toHaveCount(0);

    // Back to all projects: previewed too (counted, not the fallback sentence), then saved.
    await card(page).getByRole('radio', { name: 'All projects' }).check();
    await expect(checklist(page)).toHaveCount(0);
    await saveProjects(page).click();
    const all = page.getByRole('dialog', { name: 'Sync all projects?' });
    await expect(all.getByRole('status', { name: 'What this change does' })).toBeVisible();
    await all.getByRole('button', { name: 'Save' }).click();
    await expect(all).toBeHidden();
    await page.reload();
    await expect(card(page).getByRole('radio', { name: 'All projects' })).toBeChecked();
    await expect(eventProject(page)).toHaveValue('Inbox');
  });

  test('shows tasks with a date but no time as all-day events, previewed first while syncing', async ({
    page,
  }) => {
    await syncingWithProjects(page, newPerson('Dana', 'Dated'));

    // Left alone by default.
    await expect(datedTasks(page)).toBeVisible();
    await expect(datedTasksOption(page, 'Left alone')).toBeChecked();
    await expect(datedTasksOption(page, 'As all-day events')).not.toBeChecked();
    await expect(
      datedTasks(page).getByText(
        'A timeboxed task with a date but no time gets an all-day event on that date.',
      ),
    ).toBeVisible();

    // Sync is on: choosing previews the change first (the choice waits for it); cancelled, nothing is saved.
    const title = 'Show tasks with a date but no time as all-day events?';
    await datedTasksOption(page, 'As all-day events').click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('status', { name: 'What this change does' })).toContainText(
      'Nothing already synced changes.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(datedTasksOption(page, 'Left alone')).toBeChecked();
    expect(await savedDatedTasks(page)).toBe('skip');

    // Chosen again and confirmed: saved.
    await datedTasksOption(page, 'As all-day events').click();
    await expect(dialog).toBeVisible();
    await atBothWidths(page, async (width) => {
      await expect(dialog.getByRole('status', { name: 'What this change does' })).toBeVisible();
      expect(await seriousViolations(page), `the dated tasks change preview, at ${width} px`).toEqual([]);
      await page.screenshot({
        path: `e2e-artifacts/what-syncs-dated-preview-${width}.png`,
        animations: 'disabled',
      });
    });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(datedTasksOption(page, 'As all-day events')).toBeChecked();
    await expect(datedTasksOption(page, 'As all-day events')).toBeEnabled();
    expect(await savedDatedTasks(page)).toBe('allday');

    // Read afresh, the choice is there.
    await page.reload();
    await atBothWidths(page, async (width) => {
      await expect(datedTasksOption(page, 'As all-day events')).toBeChecked();
      await expect(datedTasksOption(page, 'Left alone')).not.toBeChecked();
      expect(
        await seriousViolations(page),
        `the dashboard with the dated tasks choice, at ${width} px`,
      ).toEqual([]);
      expect(
        await violationsAround(page),
        `the card with the dated tasks choice, any impact, at ${width} px`,
      ).toEqual([]);
      await screenshots(page, `dated-${width}`);
    });
  });
});

test('before Todoist is connected, the card says so and nothing can be chosen', async ({ page }) => {
  await signedIn(page, 'Google', newPerson('Nora', 'Notyet'));
  await expect(card(page)).toContainText('Connect Todoist in the Integrations above');
  await expect(card(page)).toContainText('Your Todoist projects appear here once Todoist is connected.');
  await expect(card(page).getByRole('radio', { name: 'All projects' })).toBeDisabled();
  await expect(card(page).getByRole('radio', { name: 'Chosen projects' })).toBeDisabled();
  await expect(eventProject(page)).toBeDisabled();
  await expect(saveProjects(page)).toBeDisabled();
  await expect(datedTasksOption(page, 'Left alone')).toBeDisabled();
  await expect(datedTasksOption(page, 'As all-day events')).toBeDisabled();
  await screenshots(page, 'not-connected-1280');
});
