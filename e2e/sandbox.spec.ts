import { connectCalendar, connectTodoist } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, newPerson, PHONE, seriousViolations } from './helpers.ts';
import { addSandboxTask } from './sandbox-helpers.ts';
import { signedIn } from './setup-through-api.ts';

test('a visitor who is not signed in is asked to sign in before using the console', async ({ page }) => {
  await page.goto('/home');
  await page.getByRole('link', { name: 'Sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox console' })).toBeVisible();
  await expect(page.getByText('Sign in to use the console')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' }).last()).toHaveAttribute('href', '/login');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveCount(0);
});

test('the sandbox console changes the emulated Todoist and calendar', async ({ page }) => {
  const person = newPerson('Sandra', 'Console');
  await signedIn(page, 'Google', person);
  await page.goto('/home');
  await page.getByRole('link', { name: 'Sandbox' }).first().click();
  await expect(page.getByRole('heading', { name: 'Sandbox console' })).toBeVisible();
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(person.email);
  await expect(page.getByLabel('Calendar account e-mail')).toHaveValue(person.email);

  const todoist = page.getByRole('region', { name: 'Todoist' });
  await expect(todoist.getByText('No open tasks.')).toBeVisible();
  await addSandboxTask(page, todoist, {
    content: 'Draft the newsletter',
    due: '2031-03-04T10:00',
    labels: ['30Minutes'],
  });
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
  await signedIn(page, 'Google', newPerson('Eve', 'Ends'));
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
  const person = newPerson('Mica', 'Switch');
  const { email } = person;
  await signedIn(page, 'Google', person);
  await page.goto('/sandbox');
  await expect(page.getByLabel('Calendar account e-mail')).toHaveValue(email);
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
  await signedIn(page, 'Google', person);
  await connectTodoist(page, todoistAccount);
  await connectCalendar(page, calendarAccount, 'Microsoft 365');

  await page.goto('/sandbox');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(todoistAccount.email);
  await expect(page.getByLabel('Calendar account e-mail')).toHaveValue(calendarAccount.email);
  const calendar = page.getByRole('region', { name: 'Microsoft 365' });
  await expect(calendar.getByRole('radio', { name: 'Microsoft 365' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Sync activity' })).toContainText('Sync is off.');

  // The visitor can still look at the account of their sign-in address, and at nobody else's.
  await page.getByLabel('Todoist account e-mail').fill(person.email);
  await expect(page.getByRole('region', { name: 'Todoist' }).getByText('No open tasks.')).toBeVisible();
  await page.getByLabel('Todoist account e-mail').fill('somebody.else@example.com');
  await expect(page.getByRole('region', { name: 'Todoist' })).toContainText(
    'works only on your own emulated accounts',
  );
});

// Played at 375 px; its dialogs and the labels are looked at and checked at 1280 px too.
test('a Todoist label is renamed and deleted on /sandbox, and its task follows, at 375 px, its screens also at 1280 px', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize(PHONE);
  const person = newPerson('Lena', 'Labels');
  await signedIn(page, 'Google', person);
  await connectTodoist(page, person, { labels: [{ name: '30Minutes' }, { name: 'Deep work' }] });
  await page.goto('/sandbox');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(person.email);
  const todoist = page.getByRole('region', { name: 'Todoist' });
  const labels = todoist.getByRole('region', { name: 'Labels' });
  await expect(labels.getByRole('listitem')).toHaveText([/@30Minutes/, /@Deep work/]);

  await addSandboxTask(page, todoist, { content: 'Plan the week', labels: ['30Minutes'] });
  const task = todoist.getByRole('listitem', { name: 'Plan the week' });
  await expect(task).toContainText('@30Minutes');
  await expect(labels.getByRole('listitem').first()).toContainText('1 open task');

  await labels.getByRole('button', { name: 'Rename label 30Minutes' }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename label' });
  await expect(renameDialog.getByLabel('Label name')).toHaveValue('30Minutes');
  await renameDialog.getByLabel('Label name').fill('45Minutes');
  await renameDialog.getByRole('button', { name: 'Save' }).click();
  await expect(renameDialog).toBeHidden();
  await expect(task).toContainText('@45Minutes');
  await expect(task).not.toContainText('@30Minutes');
  await expect(labels.getByRole('listitem')).toHaveText([/@45Minutes/, /@Deep work/]);

  // Todoist keeps label names unique, whatever their case; its refusal reaches the visitor.
  await labels.getByRole('button', { name: 'Rename label Deep work' }).click();
  await renameDialog.getByLabel('Label name').fill('45minutes');
  await renameDialog.getByRole('button', { name: 'Save' }).click();
  const refusal = renameDialog.getByText('There is already a label named “45minutes” in Todoist');
  await expect(refusal).toBeVisible();
  await page.waitForTimeout(300);
  await atBothWidths(page, async (width) => {
    await expect(refusal).toBeVisible();
    expect(await seriousViolations(page), `rename dialog with a refusal, at ${width} px`).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/sandbox-label-rename-${width}.png` });
  });
  await renameDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(renameDialog).toBeHidden();

  await atBothWidths(page, async (width) => {
    await expect(labels.getByRole('listitem')).toHaveText([/@45Minutes/, /@Deep work/]);
    expect(await seriousViolations(page), `sandbox with labels, at ${width} px`).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/sandbox-labels-${width}.png`, fullPage: true });
  });

  await labels.getByRole('button', { name: 'Delete label 45Minutes' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete label?' });
  await expect(deleteDialog).toBeVisible();
  await page.waitForTimeout(300);
  await atBothWidths(page, async (width) => {
    await expect(deleteDialog).toContainText(
      'Delete the label 45Minutes? Todoist removes it from every task.',
    );
    await page.screenshot({ path: `e2e-artifacts/sandbox-label-delete-${width}.png` });
  });
  await deleteDialog.getByRole('button', { name: 'Delete label' }).click();
  await expect(deleteDialog).toBeHidden();
  await expect(labels.getByRole('listitem')).toHaveText([/@Deep work/]);
  await expect(task).not.toContainText('@45Minutes');
  await expect(task).toBeVisible();
});
