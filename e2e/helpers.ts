import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type Person = { email: string; name: string; firstName: string };

/** A person nobody has used yet, so tests running in parallel never share an account. */
export function newPerson(firstName = 'Ada', lastName = 'Lovelace'): Person {
  const tag = randomBytes(4).toString('hex');
  return {
    email: `${firstName.toLowerCase()}.${tag}@example.com`,
    name: `${firstName} ${lastName}`,
    firstName,
  };
}

/**
 * Signs in from the login page through an emulated provider's page, as a person would. A new account
 * first sees the welcome wizard; it is gone through unless the test is about it.
 */
export async function signIn(
  page: Page,
  provider: 'Google' | 'Facebook',
  person: Person,
  { keepWelcomeWizard = false }: { keepWelcomeWizard?: boolean } = {},
) {
  await page.goto('/login');
  await page.getByRole('link', { name: `Log in with ${provider}` }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  if (keepWelcomeWizard) return;
  const user = await (await page.request.get('/api/current_user')).json();
  if (!user.welcomeWizardSeen) await finishWelcomeWizard(page);
}

/** Goes through the five steps of the welcome wizard and closes it with 'Ok, let's go'. */
export async function finishWelcomeWizard(page: Page) {
  const wizard = page.getByRole('dialog', { name: 'Welcome to Timeboxer' });
  await expect(wizard).toBeVisible();
  for (let step = 1; step < 5; step += 1) {
    await expect(wizard.getByText(`Step ${step} of 5`)).toBeVisible();
    await wizard.getByRole('button', { name: 'Next' }).click();
  }
  await wizard.getByRole('button', { name: "Ok, let's go" }).click();
  await expect(wizard).toBeHidden();
}

/**
 * An axe run over the page. A page without frames (all of the app's) is checked in the page itself with
 * `axe.run` ("legacy mode"): the same rules and the same results as the frame-by-frame run, which also
 * opens a blank page to put the frames' results together, at about half the time. A page with frames
 * keeps that run, which checks every frame.
 */
export function axeOf(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);
}

/** The two widths of the spec: a phone's and a desktop's. */
export const PHONE = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/** The page at `size`, once the app has drawn itself at that width (its media queries answered). */
export async function resizeTo(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/**
 * For a flow played at 375 px (where a control is most often covered, off-screen or moved into a
 * drawer) whose key screens must hold at both widths: runs `check` on the screen as it is, at 375 px,
 * then at 1280 px, and goes back to 375 px for the rest of the flow. `height`: both heights, when not
 * the phone's and the desktop's.
 */
export async function atBothWidths(
  page: Page,
  check: (width: number) => Promise<void>,
  { height }: { height?: number } = {},
) {
  await check(PHONE.width);
  await resizeTo(page, { width: DESKTOP.width, height: height ?? DESKTOP.height });
  await check(DESKTOP.width);
  await resizeTo(page, { width: PHONE.width, height: height ?? PHONE.height });
}

/** Serious and critical axe violations on the page as it is now, as short readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await axeOf(page).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.html}`).join(', ')}`,
    );
}
