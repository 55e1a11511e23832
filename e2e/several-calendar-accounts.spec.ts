import { connectCalendar, section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, newPerson, PHONE, resizeTo, seriousViolations } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

/**
 * Several calendar accounts (decision 028): a second one connected in the sandbox, listed, shown in the
 * console, made the sync's and back, removed.
 */
test('connects a second calendar account, lists it with its calendars, shows it in the sandbox, syncs with it and back, and removes it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const person = newPerson('Sev', 'Accounts');
  const work = person.email.replace('@', '.work@');
  await signedIn(page, 'Google', person);
  await connectCalendar(page, person, 'Google Calendar');
  const settings = section(page, 'Calendar Settings');
  const list = settings.getByRole('region', { name: 'Calendar accounts' });
  const googleRow = list.getByRole('listitem', { name: `Google Calendar: ${person.email}` });
  await expect(googleRow.getByText('Syncs with Timeboxer')).toBeVisible();

  // Another account: the emulated Microsoft page asks which; every address is an account there.
  await list.getByRole('link', { name: 'Add Microsoft 365' }).click();
  await expect(page.getByText('type another one to use another account')).toBeVisible();
  await page.getByLabel('Email').fill(work);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Congratulations!' })).toBeVisible();
  const workRow = list.getByRole('listitem', { name: `Microsoft 365: ${work}` });
  await expect(workRow.getByText('Busy times for Plan my day')).toBeVisible();
  await expect(workRow.getByText(/Calendar \(main\)/)).toBeVisible();
  // The sync's account is still the Google one.
  await expect(
    section(page, 'Integrations').getByRole('article', { name: 'Google Calendar integration' }),
  ).toBeVisible();

  await resizeTo(page, PHONE);
  await atBothWidths(page, async (width) => {
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e-artifacts/several-accounts-${width}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  // The sandbox console shows a calendar panel for each connected account.
  await page.goto('/sandbox');
  const emails = page.getByLabel('Calendar account e-mail');
  await expect(emails).toHaveCount(2);
  await expect(emails.nth(1)).toHaveValue(work);
  const workPanel = page.getByRole('region', { name: 'Microsoft 365' });
  await expect(workPanel.getByRole('button', { name: 'Add event' })).toBeEnabled();
  await expect(
    page.getByRole('region', { name: 'Google Calendar' }).getByRole('button', { name: 'Add event' }),
  ).toBeEnabled();
  await page.screenshot({ path: 'e2e-artifacts/several-accounts-sandbox.png', fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);

  // Syncing with the added account without removing one, confirmed with what it does; then back.
  await page.goto('/dashboard');
  await workRow.getByRole('button', { name: `Sync with this account: ${work}` }).click();
  const switchDialog = page.getByRole('dialog', { name: `Sync with ${work}?` });
  await expect(switchDialog).toContainText(`The events already synced stay in ${person.email}`);
  await expect(switchDialog).toContainText(`${person.email} stays connected`);
  await page.waitForTimeout(300); // the opening transition: half-faded text fails contrast checks
  await atBothWidths(page, async (width) => {
    await page.screenshot({
      path: `e2e-artifacts/several-accounts-switch-${width}.png`,
      animations: 'disabled',
    });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
  await switchDialog.getByRole('button', { name: 'Yes, sync with it' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Calendar account changed' })).toContainText(
    `Timeboxer syncs with ${work} now.`,
  );
  await expect(workRow.getByText('Syncs with Timeboxer')).toBeVisible();
  await expect(googleRow.getByText('Busy times for Plan my day')).toBeVisible();
  await expect(settings.getByLabel('Calendar', { exact: true })).toHaveValue('');
  await expect(
    section(page, 'Integrations').getByRole('article', { name: 'Microsoft integration' }),
  ).toBeVisible();
  await atBothWidths(page, async (width) => {
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `e2e-artifacts/several-accounts-switched-${width}.png` });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
  await googleRow.getByRole('button', { name: `Sync with this account: ${person.email}` }).click();
  await page
    .getByRole('dialog', { name: `Sync with ${person.email}?` })
    .getByRole('button', { name: 'Yes, sync with it' })
    .click();
  await expect(googleRow.getByText('Syncs with Timeboxer')).toBeVisible();
  await expect(workRow.getByText('Busy times for Plan my day')).toBeVisible();

  // Removing the added account, confirmed by name: the Google account stays the sync's.
  await workRow.getByRole('button', { name: `Remove ${work}` }).click();
  const dialog = page.getByRole('dialog', { name: `Remove ${work}?` });
  await expect(dialog).toContainText('Your sync and its events stay as they are.');
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Calendar account removed' })).toContainText(
    `You removed ${work}.`,
  );
  await expect(workRow).toHaveCount(0);
  await expect(googleRow).toBeVisible();
});
