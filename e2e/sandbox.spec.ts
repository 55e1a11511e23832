import { randomBytes } from 'node:crypto';
import { connectCalendar, connectTodoist } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson, signIn } from './helpers.ts';

test('the sandbox console changes the emulated Todoist and calendar', async ({ page }) => {
  const email = `sandbox.${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/home');
  await page.getByRole('link', { name: 'Sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox console' })).toBeVisible();
  await page.getByLabel('Todoist account e-mail').fill(email);
  await page.getByLabel('Calendar account e-mail').fill(email);

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

test('the calendar side switches to Microsoft 365', async ({ page }) => {
  const email = `sandbox.${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/sandbox');
  await page.getByLabel('Calendar account e-mail').fill(email);
  const google = page.getByRole('region', { name: 'Google Calendar' });
  await expect(google.getByLabel('Calendar', { exact: true })).toHaveValue(email);
  await expect(google.getByRole('radio', { name: 'Google Calendar' })).toBeChecked();
  await google.getByRole('radiogroup', { name: 'Calendar service' }).getByText('Microsoft 365').click();

  const calendar = page.getByRole('region', { name: 'Microsoft 365' });
  await expect(calendar.getByRole('heading', { name: 'Microsoft 365' })).toBeVisible();
  await expect(calendar.getByRole('radio', { name: 'Microsoft 365' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Google Calendar' })).toHaveCount(0);
  await expect(calendar.getByLabel('Calendar', { exact: true })).toHaveValue('Calendar');
  await expect(calendar.getByText('No events in the next two weeks.')).toBeVisible();

  await calendar.getByRole('button', { name: 'Add event' }).click();
  const eventDialog = page.getByRole('dialog', { name: 'New event' });
  await eventDialog.getByLabel('Title').fill('Design review');
  await eventDialog.getByRole('button', { name: 'Add event' }).click();
  const event = calendar.getByRole('listitem', { name: 'Design review' });
  await expect(event).toBeVisible();

  await event.getByRole('button', { name: 'Edit Design review' }).click();
  await page.getByRole('dialog', { name: 'Edit event' }).getByLabel('Title').fill('Design critique');
  await page.getByRole('dialog', { name: 'Edit event' }).getByRole('button', { name: 'Save event' }).click();
  const renamed = calendar.getByRole('listitem', { name: 'Design critique' });
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete Design critique' }).click();
  await expect(calendar.getByRole('listitem', { name: 'Design critique' })).toHaveCount(0);
  await expect(calendar.getByText('No events in the next two weeks.')).toBeVisible();

  await calendar.getByRole('radiogroup', { name: 'Calendar service' }).getByText('Google Calendar').click();
  await expect(
    page.getByRole('region', { name: 'Google Calendar' }).getByLabel('Calendar', { exact: true }),
  ).toHaveValue(email);
});

test('the console opens on the accounts the signed-in visitor connected', async ({ page }) => {
  test.setTimeout(60_000);
  const person = newPerson('Sandy', 'Box');
  const todoistAccount = { ...person, email: `todo.${person.email}` };
  const calendarAccount = { ...person, email: `mailbox.${person.email}` };
  await signIn(page, 'Google', person);
  await connectTodoist(page, todoistAccount);
  await connectCalendar(page, calendarAccount, 'Microsoft 365');

  await page.goto('/sandbox');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(todoistAccount.email);
  await expect(page.getByLabel('Calendar account e-mail')).toHaveValue(calendarAccount.email);
  const calendar = page.getByRole('region', { name: 'Microsoft 365' });
  await expect(calendar.getByRole('radio', { name: 'Microsoft 365' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Sync activity' })).toContainText('Sync is off.');

  // The visitor can still look at another account.
  await page.getByLabel('Todoist account e-mail').fill(person.email);
  await expect(page.getByRole('region', { name: 'Todoist' }).getByText('No open tasks.')).toBeVisible();
});
