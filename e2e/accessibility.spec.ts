import { expect, test } from './fixtures.ts';
import { newPerson, seriousViolations } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

const publicRoutes = [
  '/home',
  '/login',
  '/signup',
  '/contact',
  '/privacy',
  '/terms',
  '/legal',
  '/changelog',
  '/documentation',
  '/dashboard',
  '/profile',
  '/subscriptionsuccess',
  '/sandbox',
  '/notices/off',
];

for (const scheme of ['light', 'dark'] as const) {
  for (const route of publicRoutes) {
    test(`${route} has no serious accessibility violations (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

test.describe('with the cookie banner open', () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test('the banner and its preferences view are accessible', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Change preferences' }).click();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test('signed-in pages have no serious accessibility violations', async ({ page }) => {
  await signedIn(page, 'Google', newPerson('Axe', 'Checker'));
  for (const route of ['/dashboard', '/profile']) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await seriousViolations(page), route).toEqual([]);
  }
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page.getByRole('dialog', { name: 'Upgrade your plan' })).toBeVisible();
  await page.waitForTimeout(500); // let the opening transition end: half-faded text fails contrast checks
  expect(await seriousViolations(page), 'upgrade dialog').toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /account menu/ }).click();
  await expect(
    page.getByRole('dialog', { name: 'Account' }).getByRole('link', { name: 'Log out' }),
  ).toBeVisible();
  expect(await seriousViolations(page), 'user menu').toEqual([]);
});
