import { expect, test } from './fixtures.ts';
import { newPerson } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

test.use({ viewport: { width: 375, height: 740 } });

test('under 768 px a side drawer replaces the top bar links', async ({ page }) => {
  await page.goto('/home');
  const topBar = page.getByRole('navigation', { name: 'Main' });
  await expect(topBar.getByRole('link', { name: 'Pricing' })).toBeHidden();
  await expect(topBar.getByRole('link', { name: 'Log in' })).toBeHidden();

  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer.getByRole('link', { name: 'How it works' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Sign up' })).toBeVisible();
  await drawer.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(drawer).toBeHidden();
});

test('signed in, the drawer shows the account and its links', async ({ page }) => {
  const person = newPerson('Barbara', 'Liskov');
  await signedIn(page, 'Google', person);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer.getByText(person.email)).toBeVisible();
  await expect(drawer.getByRole('link', { name: /See changelog/ })).toContainText('1.6.1');
  await drawer.getByRole('link', { name: 'Your Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/home$/);
});
