import { section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson, seriousViolations } from './helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

/**
 * While Google's limit for all users holds the sync back (the app-wide budget), the dashboard says so
 * and when the changes go through. The budget is the whole app's, shared by every test of this server:
 * the activity answer is given the wait here instead of spending it for everyone.
 */
test('the dashboard says when the calendar provider’s limit for all users holds changes back', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await startSyncingThroughApi(page, newPerson('Rosa', 'Waiting'));
  const activity = section(page, 'Sync activity');
  await expect(activity).toContainText('Last synced at', { timeout: 15_000 });
  await expect(activity.getByText('Sync is running behind')).toHaveCount(0);

  const until = new Date(Date.now() + 5 * 60_000);
  await page.route('**/api/sync/activity', async (route) => {
    const response = await route.fetch();
    const body = {
      ...(await response.json()),
      providerBusy: { provider: 'google', until: until.toISOString() },
    };
    await route.fulfill({ response, json: body });
  });
  const note = activity.getByRole('status').filter({ hasText: 'Sync is running behind' });
  await expect(note).toBeVisible({ timeout: 15_000 });
  const time = `${String(until.getHours()).padStart(2, '0')}:${String(until.getMinutes()).padStart(2, '0')}`;
  await expect(note).toContainText(
    `Google Calendar limits how many changes all Timeboxer users may sync each minute`,
  );
  await expect(note).toContainText(`Your changes are kept and sync by about ${time}`);
  expect(await seriousViolations(page), 'dashboard with the provider’s limit reached').toEqual([]);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e-artifacts/provider-busy-1280.png' });
  await page.setViewportSize({ width: 375, height: 812 });
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e-artifacts/provider-busy-375.png' });

  // Once the limit no longer holds, the note goes by itself.
  await page.unroute('**/api/sync/activity');
  await expect(note).toBeHidden({ timeout: 15_000 });
});
