import { section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, newPerson, PHONE, resizeTo, seriousViolations } from './helpers.ts';
import { addSandboxTask, openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { startSyncingThroughApi } from './setup-through-api.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Google Calendar refuses for good to create the events of one calendar (403 forbiddenForNonOrganizer,
 * docs/provider-facts.md §12): the dashboard names the task whose event was refused, says why in plain
 * words and when it is tried again (the back-off's 15 minutes, in the page's zone), at 1280 and 375 px.
 * The fault rule names this person's calendar only, so no other test's events are refused.
 */
test('the dashboard names a write Google Calendar refused, why, and when it is tried again', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const person = newPerson('Rhea', 'Refused');
  const { calendarOrigin } = await startSyncingThroughApi(page, person);
  const user = await (await page.request.get('/api/current_user')).json();
  const calendarId: string = user.calendarSettings.calendarId;
  const id = `(${escapeRegExp(calendarId)}|${escapeRegExp(encodeURIComponent(calendarId))})`;
  const fault = await page.request.post(`${calendarOrigin}/_emulator/faults`, {
    data: {
      kind: 'status',
      status: 403,
      reason: 'forbiddenForNonOrganizer',
      method: 'POST',
      path: `^/calendar/v3/calendars/${id}/events$`,
    },
  });
  expect(fault.ok()).toBe(true);
  const rule = (await fault.json()).id as number;

  try {
    const { todoist } = await openSandbox(page, person);
    await addSandboxTask(page, todoist, {
      content: 'Book the venue',
      due: tomorrowAt(9),
      labels: ['30Minutes'],
    });

    await page.goto('/dashboard');
    const activity = section(page, 'Sync activity');
    const note = activity.getByRole('region', { name: 'Google Calendar refused to add 1 event' });
    await expect(note).toBeVisible({ timeout: 30_000 });

    // When it is tried again: the back-off's first wait after the refusal, shown in the page's zone.
    const refused = (await (await page.request.get('/api/sync/activity')).json()).refusedWrites;
    expect(refused.items).toHaveLength(1);
    const [item] = refused.items;
    expect(Date.parse(item.retryAt) - Date.parse(item.refusedAt)).toBe(15 * 60_000);
    const zone: string = user.todoSettings.timezone?.timezone ?? 'UTC';
    const retry = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(item.retryAt));

    const list = note.getByRole('list', { name: 'Google Calendar refused to add 1 event' });
    const entry = list.getByRole('listitem');
    await expect(entry).toHaveCount(1);
    // Named by its title once Todoist has been read for it.
    await expect(entry).toContainText('“Book the venue”', { timeout: 15_000 });
    await expect(entry).toContainText('only the event’s organizer may change it');
    await expect(entry).toContainText(`next try at ${retry}`);
    await expect(note).toContainText('Everything else keeps syncing');

    for (const size of [DESKTOP, PHONE, { width: 320, height: 720 }]) {
      await resizeTo(page, size);
      await note.scrollIntoViewIfNeeded();
      await expect(entry).toBeVisible();
      expect(await seriousViolations(page), `dashboard with the refused write, ${size.width} px`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `no sideways scrolling at ${size.width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `e2e-artifacts/refused-writes-${size.width}.png` });
    }
  } finally {
    await page.request.delete(`${calendarOrigin}/_emulator/faults/${rule}`);
  }
});
