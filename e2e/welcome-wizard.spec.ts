import type { Page } from '@playwright/test';
import { addTimebox, choose, connectOffered, section, switchSyncOn } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { finishWelcomeWizard, newPerson, seriousViolations, signIn } from './helpers.ts';

const wizardOf = (page: Page) => page.getByRole('dialog', { name: 'Welcome to Timeboxer' });
const nextStepCard = (page: Page) => section(page, 'Next step');

/** Waits for the guide's "seen" to be saved, so that a reload reads it. */
const seenSaved = (page: Page) =>
  page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/welcome/onwizardseen') && response.request().method() === 'PATCH',
  );

test.describe('welcome wizard', () => {
  test('shows five steps with their actions, ignores Escape and a click outside, and is not shown again once finished', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signIn(page, 'Google', newPerson('Wanda', 'Wizard'), { keepWelcomeWizard: true });
    const wizard = wizardOf(page);
    await expect(wizard).toBeVisible();
    await expect(wizard.getByText('Step 1 of 5')).toBeVisible();
    await page.waitForTimeout(300); // the opening transition
    expect(await seriousViolations(page), 'wizard').toEqual([]);

    await page.keyboard.press('Escape');
    await page.mouse.click(5, 400);
    await expect(wizard).toBeVisible();
    await expect(wizard.getByRole('button', { name: 'Close the welcome guide' })).toBeVisible();

    const guidance = [
      /links your Todoist tasks with Google Calendar or Microsoft 365/,
      /Todoist’s own calendar integration/,
      /connect your Todoist account/,
      /15, 30 and 60\s+minutes/,
      /all the events already in that calendar would be turned into\s+Todoist tasks/,
    ];
    for (const [index, text] of guidance.entries()) {
      await expect(wizard.getByText(`Step ${index + 1} of 5`)).toBeVisible();
      await expect(wizard.getByText(text)).toBeVisible();
      if (index === 2) {
        const links = {
          'Connect Todoist': '/auth/todoist',
          'Connect Google Calendar': '/auth/google/calendar',
          'Connect Microsoft 365': '/auth/microsoft',
        };
        for (const [name, href] of Object.entries(links))
          await expect(wizard.getByRole('link', { name })).toHaveAttribute('href', href);
        expect(await seriousViolations(page), 'wizard step 3').toEqual([]);
      }
      // Nothing connected yet: the later steps say what comes first instead of offering their button.
      if (index === 3) await expect(wizard.getByText(/Connect Todoist first \(step 3\)/)).toBeVisible();
      if (index === 4)
        await expect(wizard.getByText('Connect a calendar first (step 3) to choose one.')).toBeVisible();
      if (index < 4) await wizard.getByRole('button', { name: 'Next' }).click();
    }
    await expect(wizard.getByRole('button', { name: 'Next' })).toHaveCount(0);
    const docs = wizard.getByRole('link', { name: /Open documentation/ });
    await expect(docs).toHaveAttribute('href', '/documentation');
    await expect(docs).toHaveAttribute('target', '_blank');

    await wizard.getByRole('button', { name: "Ok, let's go" }).click();
    await expect(wizard).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Status', level: 2 })).toBeVisible();
    await expect(wizard).toHaveCount(0);
  });

  test('signIn helper goes through it', async ({ page }) => {
    await signIn(page, 'Facebook', newPerson('Will', 'Wizard'), { keepWelcomeWizard: true });
    await finishWelcomeWizard(page);
  });

  test('its close button closes it for good, and the dashboard then leads with connecting Todoist', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signIn(page, 'Google', newPerson('Xena', 'Close'), { keepWelcomeWizard: true });
    const wizard = wizardOf(page);
    await wizard.getByRole('button', { name: 'Next' }).click();
    const saved = seenSaved(page);
    await wizard.getByRole('button', { name: 'Close the welcome guide' }).click();
    await expect(wizard).toBeHidden();
    expect((await saved).ok()).toBe(true);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Status', level: 2 })).toBeVisible();
    await expect(wizard).toHaveCount(0);
    const card = nextStepCard(page);
    await expect(card.getByRole('heading', { name: 'Connect Todoist' })).toBeVisible();
    await expect(card.getByText('Next step · 1 of 5')).toBeVisible();
    await expect(card.getByRole('link', { name: 'Connect Todoist' })).toHaveAttribute(
      'href',
      '/auth/todoist',
    );
    // It leads the page: right after the welcome line, before Status.
    const top = async (name: string) => (await section(page, name).boundingBox())?.y ?? Number.NaN;
    expect(await top('Next step')).toBeLessThan(await top('Status'));
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('connecting Todoist from it comes back to its step, marked done; its timebox button goes to the Time Box Settings', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const person = newPerson('Yuri', 'Guide');
    await signIn(page, 'Google', person, { keepWelcomeWizard: true });
    const wizard = wizardOf(page);
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('link', { name: 'Connect Todoist' }).click();
    await expect(page.getByLabel('Email')).toHaveValue(person.email);
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(wizard.getByText('Step 3 of 5')).toBeVisible();
    await expect(wizard.getByText('Todoist is connected ✓')).toBeVisible();
    await expect(wizard.getByRole('link', { name: 'Connect Todoist' })).toHaveCount(0);
    await expect(wizard.getByRole('link', { name: 'Connect Google Calendar' })).toBeVisible();

    await wizard.getByRole('button', { name: 'Next' }).click();
    const saved = seenSaved(page);
    await wizard.getByRole('button', { name: 'Add a timebox setting' }).click();
    await expect(wizard).toBeHidden();
    expect((await saved).ok()).toBe(true);
    const timeboxes = section(page, 'Time Box Settings');
    await expect(timeboxes).toBeFocused();
    await expect(timeboxes).toBeInViewport();
    await expect(timeboxes.getByRole('button', { name: 'Add new Timebox setting' })).toBeEnabled();

    await page.reload();
    await expect(nextStepCard(page).getByRole('heading', { name: 'Connect your calendar' })).toBeVisible();
    await expect(wizard).toHaveCount(0);
  });
});

test('the Next step card leads, one step at a time, to a running sync and then goes', async ({ page }) => {
  test.setTimeout(90_000);
  const person = newPerson('Nina', 'Next');
  await signIn(page, 'Google', person);
  const card = nextStepCard(page);
  await expect(card.getByRole('heading', { name: 'Connect Todoist' })).toBeVisible();
  await connectOffered(page, 'Connect Todoist', person.email);
  await expect(card.getByRole('heading', { name: 'Connect your calendar' })).toBeVisible();
  await expect(card.getByText('Next step · 2 of 5')).toBeVisible();
  await connectOffered(page, 'Connect Google Calendar', person.email);

  await expect(card.getByRole('heading', { name: 'Add a timebox setting' })).toBeVisible();
  await card.getByRole('link', { name: 'Add a timebox setting' }).click();
  await expect(section(page, 'Time Box Settings')).toBeFocused();
  await addTimebox(page, '30Minutes', '30');

  await expect(card.getByRole('heading', { name: 'Choose a calendar' })).toBeVisible();
  await card.getByRole('link', { name: 'Choose your calendar' }).click();
  const settings = section(page, 'Calendar Settings');
  await expect(settings).toBeFocused();
  await choose(settings, page, 'Event colour', 'Basil');
  await expect(settings.getByRole('combobox', { name: 'Event colour' })).toBeEnabled();
  await choose(settings, page, 'Calendar', 'Timeboxer');

  await expect(card.getByRole('heading', { name: 'Switch sync on' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await card.getByRole('link', { name: 'Go to Sync active' }).click();
  await expect(section(page, 'Status').getByRole('switch', { name: 'Sync active' })).toBeFocused();
  await switchSyncOn(page, 'Timeboxer');
  await expect(card).toHaveCount(0);
});
