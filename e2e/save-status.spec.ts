import type { Locator, Page } from '@playwright/test';
import { choose, connectOffered, section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, newPerson, PHONE, resizeTo, seriousViolations } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

/**
 * One save model on the dashboard (docs/product-rules.md §4): a single control saves on change and its
 * card's title says "Saved"; a form saves with its button and "Saved" shows beside it; "Saved" fades
 * after a few seconds; a failed save says so in plain words, beside the toast. Played at 375 px; then at
 * 1280 px each kind of save is made once more, its "Saved" or failure looked at and checked there.
 */

const calendarCard = (page: Page) => section(page, 'Calendar Settings');
const planCard = (page: Page) => section(page, 'Plan my day');
/** The confirmation in a card's title row (the heading's row). */
const titleStatus = (card: Locator) => card.getByRole('status').first();
/** The confirmation beside a form's Save button: in the button's row. */
const besideSave = (card: Locator) =>
  card.getByRole('button', { name: 'Save', exact: true }).locator('..').getByRole('status');

/**
 * The working hours saved through their form: "Saved" beside its Save button and none in the card's
 * title, no Undo; looked at and checked with axe at `width`.
 */
async function saveHours(page: Page, start: string, width: number) {
  const plan = planCard(page);
  await plan.getByRole('group', { name: 'Working hours' }).getByLabel('Start').fill(start);
  await expect(besideSave(plan)).toHaveText('');
  await plan.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(besideSave(plan)).toHaveText('Saved');
  await expect(titleStatus(plan)).toHaveText('');
  await expect(plan.getByRole('button', { name: 'Undo' })).toBeHidden();
  await plan.scrollIntoViewIfNeeded();
  await plan.screenshot({ path: `e2e-artifacts/save-status-plan-${width}.png` });
  expect(await seriousViolations(page), `"Saved" shown, at ${width} px`).toEqual([]);
}

/**
 * The Todoist link switch flipped while the server refuses: the words beside the title and the toast
 * say so, and the switch stays as it was; looked at and checked with axe at `width`.
 */
async function refusedSave(page: Page, linkSwitch: Locator, checkedBefore: boolean, width: number) {
  const calendar = calendarCard(page);
  await page.route('**/api/calendar/todoistlinkdescription', (route) =>
    route.fulfill({ status: 503, json: { message: 'The server is busy.' } }),
  );
  await linkSwitch.click();
  await expect(titleStatus(calendar)).toHaveText('Could not save. Please try again.');
  await expect(page.getByRole('alert').filter({ hasText: 'Your change was not saved' })).toBeVisible();
  await page.waitForTimeout(500); // let the toast's opening transition end: half-faded text fails contrast
  if (checkedBefore) await expect(linkSwitch).toBeChecked();
  else await expect(linkSwitch).not.toBeChecked();
  await calendar.scrollIntoViewIfNeeded();
  await calendar.screenshot({ path: `e2e-artifacts/save-status-calendar-error-${width}.png` });
  expect(await seriousViolations(page), `the failure shown, at ${width} px`).toEqual([]);
}

test('a calendar setting and Plan my day\'s hours each say "Saved", at 375 px, and once more at 1280 px', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  const person = newPerson('Sava', 'Saver');
  await signedIn(page, 'Google', person);
  await connectOffered(page, 'Connect Todoist', person.email);
  await connectOffered(page, 'Connect Google Calendar', person.email);

  // A switch saves on change; the card's title says so, then the word fades.
  const calendar = calendarCard(page);
  await expect(titleStatus(calendar)).toHaveText('');
  await calendar.getByRole('switch', { name: 'Private events' }).click();
  await expect(titleStatus(calendar)).toHaveText('Saved');
  await expect(calendar.getByRole('switch', { name: 'Private events' })).toBeChecked();
  await calendar.scrollIntoViewIfNeeded();
  await calendar.screenshot({ path: 'e2e-artifacts/save-status-calendar-375.png' });
  await expect(titleStatus(calendar)).toHaveText('', { timeout: 10_000 });

  // A select too (sync is off, so no preview first).
  await choose(calendar, page, 'Event colour', 'Basil');
  await expect(titleStatus(calendar)).toHaveText('Saved');
  await expect(titleStatus(calendar)).toHaveText('', { timeout: 10_000 });

  // The working hours are a form: "Saved" beside its Save button, none in the title.
  await saveHours(page, '08:30', 375);
  const user = await (await page.request.get('/api/current_user')).json();
  expect(user.calendarSettings).toMatchObject({ private: true, color: '10', autoplan: { start: '08:30' } });

  // A save the server refuses: the words beside the title stay, and the toast says so too.
  const linkSwitch = calendar.getByRole('switch', { name: 'Todoist link in description' });
  await refusedSave(page, linkSwitch, false, 375);
  await page.waitForTimeout(3500);
  await expect(titleStatus(calendar)).toHaveText('Could not save. Please try again.');

  // Tried again once the server answers: "Saved".
  await page.unroute('**/api/calendar/todoistlinkdescription');
  await linkSwitch.click();
  await expect(titleStatus(calendar)).toHaveText('Saved');
  await expect(linkSwitch).toBeChecked();

  // At 1280 px: a switch's "Saved", the form's, and a refused save, each once more.
  await resizeTo(page, DESKTOP);
  await expect(titleStatus(calendar)).toHaveText('', { timeout: 10_000 });
  await calendar.getByRole('switch', { name: 'Private events' }).click();
  await expect(titleStatus(calendar)).toHaveText('Saved');
  await expect(calendar.getByRole('switch', { name: 'Private events' })).not.toBeChecked();
  await calendar.scrollIntoViewIfNeeded();
  await calendar.screenshot({ path: 'e2e-artifacts/save-status-calendar-1280.png' });

  await saveHours(page, '08:45', 1280);
  const again = await (await page.request.get('/api/current_user')).json();
  expect(again.calendarSettings).toMatchObject({ private: false, autoplan: { start: '08:45' } });

  await refusedSave(page, linkSwitch, true, 1280);
  await page.unroute('**/api/calendar/todoistlinkdescription');
});
