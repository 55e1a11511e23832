import { expect, test } from './fixtures.ts';
import { newPerson } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

test('deleting the account needs "delete" typed, then removes it and signs out', async ({ page }) => {
  const person = newPerson('Rosalind', 'Franklin');
  await signedIn(page, 'Google', person);
  const before = await (await page.request.get('/api/current_user')).json();

  await page.goto('/profile');
  await page
    .getByRole('region', { name: 'Danger Zone' })
    .getByRole('button', { name: 'Delete account' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  const input = dialog.getByLabel('Type "delete" to confirm');
  await expect(confirm).toBeDisabled();
  await input.fill('delet');
  await expect(confirm).toBeDisabled();
  await input.fill('DeLeTe');
  await expect(confirm).toBeEnabled();
  await confirm.click();

  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(await (await page.request.get('/api/current_user')).text()).toBe('');

  await signedIn(page, 'Google', person);
  const after = await (await page.request.get('/api/current_user')).json();
  expect(after.id).not.toBe(before.id);
});

test('cancelling the deletion keeps the account', async ({ page }) => {
  await signedIn(page, 'Facebook', newPerson('Lise', 'Meitner'));
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete account' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
