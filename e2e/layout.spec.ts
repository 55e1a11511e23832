import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { newPerson } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

/** Every screen at the three widths of the spec: no sideways scrolling, and a screenshot to look at. */
const widths = [375, 768, 1280];
const publicPages = ['/home', '/login', '/signup', '/contact', '/documentation', '/dashboard', '/sandbox'];
const signedInPages = ['/dashboard', '/profile'];

async function checkLayout(page: Page, path: string, width: number, tag: string) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(0);
  const name = `${tag}${path.replaceAll('/', '-')}-${width}.png`;
  await page.screenshot({ path: `e2e-artifacts/${name}`, fullPage: true });
}

for (const width of widths) {
  test(`public pages fit ${width} px`, async ({ page }) => {
    for (const path of publicPages) await checkLayout(page, path, width, 'public');
  });

  test(`signed-in pages fit ${width} px`, async ({ page }) => {
    await signedIn(page, 'Google', newPerson('Layout', `Width${width}`));
    for (const path of signedInPages) await checkLayout(page, path, width, 'signed-in');
  });
}
