import type { Page } from '@playwright/test';
import { section } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { atBothWidths, newPerson, PHONE, seriousViolations } from './helpers.ts';
import { addSandboxTask, openSandbox, tomorrowAt } from './sandbox-helpers.ts';
import { signedIn, startSyncingThroughApi } from './setup-through-api.ts';

const MAILS = 'E-mail me when my sync stops or needs me';
const RESOLVED = 'Also when it is solved';

const viewport = (width: number) => ({ width, height: width === 375 ? 812 : 800 });

const noticeSwitches = (page: Page) => {
  const card = section(page, 'Notifications');
  return {
    card,
    mails: card.getByRole('switch', { name: MAILS }),
    resolved: card.getByRole('switch', { name: RESOLVED }),
  };
};

// Played at 375 px; the card is looked at and checked at 1280 px too.
test("the profile's notice switches save and survive a reload, at 375 px, the card also at 1280 px", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize(PHONE);
  await signedIn(page, 'Google', newPerson('Nora', 'Notices'));
  await page.goto('/profile');
  const { card, mails, resolved } = noticeSwitches(page);
  await atBothWidths(page, async (width) => {
    await expect(mails).toBeChecked();
    await expect(resolved).not.toBeChecked();
    await expect(resolved).toBeEnabled();
    expect(await seriousViolations(page), `profile with notifications, at ${width} px`).toEqual([]);
    await card.screenshot({ path: `e2e-artifacts/notices-profile-${width}.png` });
  });

  await resolved.click();
  await expect(resolved).toBeChecked();
  // Saved: the switches are enabled again once the server has answered.
  await expect(mails).toBeEnabled();
  await page.reload();
  await expect(resolved).toBeChecked();
  await expect(mails).toBeChecked();

  await mails.click();
  await expect(mails).not.toBeChecked();
  await expect(mails).toBeEnabled();
  await expect(resolved).toBeDisabled();
  await page.reload();
  await expect(mails).not.toBeChecked();
  await expect(resolved).toBeDisabled();
  await expect(resolved).toBeChecked();
  await expect(card).toContainText('Turn on the mails above first.');
});

test('a notice mail reaches the sandbox inbox, and its link turns the mails off', async ({ page }) => {
  test.setTimeout(120_000);
  const person = newPerson('Sam', 'Stopped');
  const { calendarOrigin } = await startSyncingThroughApi(page, person);

  // The synced calendar disappears at Google: the next run stops and the worker mails the person.
  const { todoist } = await openSandbox(page, person);
  const inbox = page.getByRole('region', { name: 'Inbox' });
  await expect(inbox).toContainText('No mail yet.');
  const calendar = await page.request.get(
    `/api/sandbox/calendar?${new URLSearchParams({ email: person.email, provider: 'google' })}`,
  );
  const { calendars } = (await calendar.json()) as { calendars: { id: string; name: string }[] };
  const timeboxer = calendars.find((each) => each.name === 'Timeboxer');
  expect(timeboxer).toBeDefined();
  const deleted = await page.request.delete(
    `${calendarOrigin}/_emulator/calendars/${encodeURIComponent(timeboxer?.id ?? '')}`,
  );
  expect(deleted.ok()).toBe(true);
  await addSandboxTask(page, todoist, {
    content: 'Write the report',
    due: tomorrowAt(9),
    labels: ['30Minutes'],
  });

  const mail = inbox.getByRole('button', { name: /Your sync has stopped/ });
  await expect(mail).toBeVisible({ timeout: 30_000 });
  await mail.click();
  await expect(mail).toHaveAttribute('aria-expanded', 'true');
  await expect(inbox).toContainText(`Hi ${person.firstName},`);
  const offLink = inbox.getByRole('link', { name: /\/notices\/off\?u=/ });
  await expect(offLink).toBeVisible();
  await page.waitForTimeout(300); // the panel's opening transition
  expect(await seriousViolations(page), 'sandbox with a mail').toEqual([]);
  await inbox.screenshot({ path: 'e2e-artifacts/notices-sandbox-inbox-1280.png' });
  await page.screenshot({ path: 'e2e-artifacts/notices-sandbox-1280.png', fullPage: true });
  const href = (await offLink.getAttribute('href')) ?? '';

  // At 375 px the inbox sits under the two sides and stays readable.
  await page.setViewportSize(viewport(375));
  await inbox.scrollIntoViewIfNeeded();
  await expect(offLink).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
  await inbox.screenshot({ path: 'e2e-artifacts/notices-sandbox-inbox-375.png' });
  await page.setViewportSize(viewport(1280));

  // Opening the link changes nothing (mail scanners open links); only the button does.
  await page.goto(href);
  await expect(page.getByRole('heading', { name: 'Turn off notice e-mails?', level: 1 })).toBeVisible();
  expect((await (await page.request.get('/api/current_user')).json()).notices.mails).toBe(true);
  expect(await seriousViolations(page), 'turn-off page').toEqual([]);
  await page.getByRole('button', { name: 'Turn them off' }).click();
  await expect(page.getByRole('heading', { name: 'Notice e-mails are off', level: 1 })).toBeVisible();
  await expect(page.getByText('You can turn them on again in your profile.')).toBeVisible();
  expect(await seriousViolations(page), 'turned off').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/notices-off-done-1280.png' });
  await page.setViewportSize(viewport(375));
  await page.screenshot({ path: 'e2e-artifacts/notices-off-done-375.png' });

  await page.getByRole('link', { name: 'profile', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(noticeSwitches(page).mails).not.toBeChecked();
});

// Played at 375 px; both pages are looked at and checked at 1280 px too.
test('the turn-off page works without signing in, and explains a broken link, at 375 px, also at 1280 px', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const off = (query: string) => `/notices/off?${query}`;

  // A whole link whose signature is wrong: the server's refusal is shown.
  await page.goto(off('u=0b6a5f0e-7d3c-4c1e-9f5a-2a1b3c4d5e6f&t=not_the_signature'));
  await atBothWidths(page, async (width) => {
    await expect(page.getByRole('heading', { name: 'Turn off notice e-mails?', level: 1 })).toBeVisible();
    expect(await seriousViolations(page), `turn-off page, at ${width} px`).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/notices-off-${width}.png` });
  });
  await page.getByRole('button', { name: 'Turn them off' }).click();
  await atBothWidths(page, async (width) => {
    await expect(page.getByRole('alert')).toContainText('This link to turn notices off is not valid.');
    expect(await seriousViolations(page), `refused link, at ${width} px`).toEqual([]);
    await page.screenshot({ path: `e2e-artifacts/notices-off-refused-${width}.png` });
  });

  // A link cut short: nothing to send, so the button is off and the page says why.
  await page.goto(off('u=0b6a5f0e-7d3c-4c1e-9f5a-2a1b3c4d5e6f'));
  await atBothWidths(page, async () => {
    await expect(page.getByRole('alert')).toContainText('This link is incomplete');
    await expect(page.getByRole('button', { name: 'Turn them off' })).toBeDisabled();
  });
});
