import { expect, test } from './fixtures.ts';

test.use({ storageState: { cookies: [], origins: [] } });

const consentCookie = async (page: import('@playwright/test').Page) => {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'timeboxer-consent');
  return cookie ? JSON.parse(decodeURIComponent(cookie.value)) : undefined;
};

test('the banner waits at the bottom, and nothing third-party loads before a choice', async ({
  page,
  thirdPartyRequests,
}) => {
  await page.goto('/home');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await expect(banner).toBeVisible();
  const box = await banner.boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThanOrEqual((page.viewportSize()?.height ?? 0) - 1);

  await page.getByRole('link', { name: 'Try for free' }).first().click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.waitForTimeout(300);
  expect(thirdPartyRequests).toEqual({ analytics: 0, chat: 0 });
  expect(await page.evaluate(() => window.dataLayer)).toBeUndefined();
  await expect(banner).toBeVisible();
});

test('Accept stores {isSet, analytical}, loads analytics, and conversions are reported', async ({
  page,
  thirdPartyRequests,
}) => {
  await page.goto('/home');
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  expect(await consentCookie(page)).toEqual({ isSet: true, analytical: true });
  await expect
    .poll(() => page.evaluate(() => (window as { __analyticsLoaded?: boolean }).__analyticsLoaded))
    .toBe(true);
  expect(thirdPartyRequests.chat).toBe(1);

  await page.getByRole('link', { name: 'Try for free' }).first().click();
  const events = await page.evaluate(() => window.dataLayer?.map((entry) => entry.event));
  expect(events).toEqual(['sign_up_click']);
});

test('Change preferences: Functional always on, Analytical on by default and can be refused', async ({
  page,
  thirdPartyRequests,
}) => {
  await page.goto('/home');
  await page.getByRole('button', { name: 'Change preferences' }).click();
  const functional = page.getByRole('switch', { name: 'Functional' });
  const analytical = page.getByRole('switch', { name: 'Analytical' });
  await expect(functional).toBeChecked();
  await expect(functional).toBeDisabled();
  await expect(analytical).toBeChecked();
  await analytical.uncheck({ force: true });
  await expect(analytical).not.toBeChecked();
  await page.getByRole('button', { name: 'Save preferences' }).click();

  expect(await consentCookie(page)).toEqual({ isSet: true, analytical: false });
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await expect.poll(() => thirdPartyRequests.chat).toBe(1);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Try for free' }).first().click();
  expect(thirdPartyRequests.analytics).toBe(0);
  expect(await page.evaluate(() => window.dataLayer)).toBeUndefined();
});
