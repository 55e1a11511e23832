import { expect, test } from './fixtures.ts';
import { newPerson, signIn } from './helpers.ts';

for (const provider of ['Google', 'Facebook'] as const) {
  test(`signs in with ${provider}, shows the user menu, and logs out`, async ({ page }) => {
    const person = newPerson(provider === 'Google' ? 'Ada' : 'Grace', 'Tester');
    await signIn(page, provider, person);
    await expect(page.getByText(`Welcome, ${person.firstName}.`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);

    await page.getByRole('button', { name: /account menu/ }).click();
    const menu = page.getByRole('dialog', { name: 'Account' });
    await expect(menu.getByText(person.name)).toBeVisible();
    await expect(menu.getByText(person.email)).toBeVisible();
    for (const item of ['Dashboard', 'Your Profile', 'Documentation', /See changelog/, 'Log out']) {
      await expect(menu.getByRole('link', { name: item })).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: /See changelog/ })).toContainText('1.6.1');

    await menu.getByRole('link', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByText('You are not logged in')).toBeVisible();
  });
}

test('a different e-mail is a different user, the same e-mail the same user', async ({ page, context }) => {
  const first = newPerson('Alan', 'Turing');
  await signIn(page, 'Google', first);
  const firstId = (await (await page.request.get('/api/current_user')).json()).id;
  await context.clearCookies();

  await signIn(page, 'Google', first);
  expect((await (await page.request.get('/api/current_user')).json()).id).toBe(firstId);
  await context.clearCookies();

  const second = newPerson('Katherine', 'Johnson');
  await signIn(page, 'Google', second);
  const secondUser = await (await page.request.get('/api/current_user')).json();
  expect(secondUser.id).not.toBe(firstId);
  expect(secondUser.email).toBe(second.email);
});

test('cancelling at the provider returns to the login page with an explanation', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Log in with Facebook' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/login\?error=cancelled$/);
  await expect(page.getByText('Sign-in was cancelled.')).toBeVisible();
});
