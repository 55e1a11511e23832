import { expect, test } from './fixtures.ts';
import { newPerson } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

test('upgrading through the checkout page turns the trial into a monthly subscription, first charged when the trial ends', async ({
  page,
}) => {
  // Three pages (profile, Stripe's checkout, the portal) and the 3 s success redirect: a long walk.
  test.setTimeout(60_000);
  await signedIn(page, 'Google', newPerson('Paula', 'Payer'));
  await expect(page.getByText(/Your free trial will end in 1[34] days/)).toBeVisible();
  await page.getByRole('link', { name: 'Upgrade now' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const subscription = page.getByRole('region', { name: 'Subscription' });
  await expect(subscription.getByText('Free Trial')).toBeVisible();
  const trialEndLine = subscription.getByText(/^Trial ends on [A-Z][a-z]+ \d{1,2}(st|nd|rd|th) \d{4}$/);
  await expect(trialEndLine).toBeVisible();
  const trialEnd = (await trialEndLine.textContent())?.replace('Trial ends on ', '') ?? '';

  await subscription.getByRole('button', { name: 'Upgrade' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade your plan' });
  await expect(dialog.getByRole('radio', { name: /Monthly/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /Yearly/ })).not.toBeChecked();
  await expect(
    dialog.getByText(`Your free trial continues: the first charge of $3 is on ${trialEnd}.`),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();

  await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/subscriptionsuccess\?session_id=cs_/);
  await expect(page.getByText('Congratulations!')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/, { timeout: 6000 });

  await expect(subscription.getByText('Monthly Subscription')).toBeVisible();
  await expect(subscription.getByText('active', { exact: true })).toBeVisible();
  await expect(subscription.getByText(`First charge on ${trialEnd}`, { exact: true })).toBeVisible();
  await expect(subscription.getByRole('button', { name: 'Manage your Subscription' })).toBeVisible();

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText(/Your free trial/)).toHaveCount(0);

  await page.goto('/profile');
  await subscription.getByRole('button', { name: 'Manage your Subscription' }).click();
  await expect(page).not.toHaveURL(/localhost:3211/);
  await expect(page.locator('body')).toContainText(/subscription/i);
});

test('the yearly plan can be chosen instead', async ({ page }) => {
  await signedIn(page, 'Facebook', newPerson('Yuri', 'Yearly'));
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Upgrade' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade your plan' });
  await dialog.getByRole('radio', { name: /Yearly/ }).check();
  await expect(dialog.getByText(/^Your free trial continues: the first charge of \$24 is on /)).toBeVisible();
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/profile$/, { timeout: 8000 });
  await expect(
    page.getByRole('region', { name: 'Subscription' }).getByText('Yearly Subscription'),
  ).toBeVisible();
});
