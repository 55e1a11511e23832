import { randomBytes } from 'node:crypto';
import { expect, test } from './fixtures.ts';

test('the sandbox console changes the emulated Todoist and calendar', async ({ page }) => {
  const email = `sandbox.${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/home');
  await page.getByRole('link', { name: 'Sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox console' })).toBeVisible();
  await page.getByLabel('Account e-mail').fill(email);

  const todoist = page.getByRole('region', { name: 'Todoist' });
  await expect(todoist.getByText('No open tasks.')).toBeVisible();
  await todoist.getByRole('button', { name: 'Add task' }).click();
  const taskDialog = page.getByRole('dialog', { name: 'New task' });
  await taskDialog.getByLabel('Task').fill('Draft the newsletter');
  await taskDialog.getByLabel('Due').fill('2031-03-04T10:00');
  await taskDialog.getByLabel('Labels').fill('30Minutes');
  await taskDialog.getByLabel('Labels').press('Enter');
  await taskDialog.getByRole('button', { name: 'Add task' }).click();
  const task = todoist.getByRole('listitem', { name: 'Draft the newsletter' });
  await expect(task).toContainText('Tue 4 Mar, 10:00');
  await expect(task).toContainText('@30Minutes');

  await task.getByRole('button', { name: 'Edit Draft the newsletter' }).click();
  await page.getByRole('dialog', { name: 'Edit task' }).getByLabel('Task').fill('Send the newsletter');
  await page.getByRole('dialog', { name: 'Edit task' }).getByRole('button', { name: 'Save task' }).click();
  const renamed = todoist.getByRole('listitem', { name: 'Send the newsletter' });
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Complete Send the newsletter' }).click();
  await expect(todoist.getByText('No open tasks.')).toBeVisible();

  const calendar = page.getByRole('region', { name: 'Google Calendar' });
  await calendar.getByRole('button', { name: 'Add event' }).click();
  const eventDialog = page.getByRole('dialog', { name: 'New event' });
  await eventDialog.getByLabel('Title').fill('Team sync');
  await eventDialog.getByRole('button', { name: 'Add event' }).click();
  const event = calendar.getByRole('listitem', { name: 'Team sync' });
  await expect(event).toBeVisible();
  await event.getByRole('button', { name: 'Delete Team sync' }).click();
  await expect(calendar.getByRole('listitem', { name: 'Team sync' })).toHaveCount(0);
});

test('the event form refuses an end before the start', async ({ page }) => {
  await page.goto('/sandbox');
  await page
    .getByRole('region', { name: 'Google Calendar' })
    .getByRole('button', { name: 'Add event' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'New event' });
  await dialog.getByLabel('Title').fill('Backwards');
  await dialog.getByLabel('Start').fill('2031-03-04T10:00');
  await dialog.getByLabel('End').fill('2031-03-04T09:00');
  await expect(dialog.getByText('The end must be after the start')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add event' })).toBeDisabled();
});
