import { expect, test } from './fixtures.ts';
import { newPerson } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

test.describe('signed out', () => {
  test('/ and /homepage lead to /home, which has the anchors', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/homepage');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.locator('#howitworks')).toBeVisible();
    await expect(page.locator('#pricing')).toBeAttached();
    await expect(page.getByRole('link', { name: 'Try for free' })).toHaveCount(4);
  });

  test('the top bar links to the anchors, and an anchor link scrolls to its section', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/home#pricing$/);
    await expect(page.getByRole('heading', { name: 'Pricing', level: 2 })).toBeInViewport();
  });

  for (const path of ['/dashboard', '/profile']) {
    test(`${path} says the visitor is not logged in`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'You are not logged in' })).toBeVisible();
      await expect(page.getByText('Please log in to access your account')).toBeVisible();
    });
  }

  test('/login and /signup show both providers, the terms sentence and a cross-link', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Log in with Google' })).toHaveAttribute(
      'href',
      '/auth/google',
    );
    await expect(page.getByRole('link', { name: 'Log in with Facebook' })).toHaveAttribute(
      'href',
      '/auth/facebook',
    );
    await expect(page.getByText('By continuing you accept our')).toBeVisible();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('link', { name: 'Sign up with Google' })).toHaveAttribute(
      'href',
      '/auth/google',
    );
    await expect(page.getByRole('link', { name: 'Sign up with Facebook' })).toHaveAttribute(
      'href',
      '/auth/facebook',
    );
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  for (const path of ['/contact', '/Contact']) {
    test(`${path} shows the support address`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Contact' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'support@timeboxer.app' })).toHaveAttribute(
        'href',
        'mailto:support@timeboxer.app',
      );
    });
  }

  const documents = [
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms and Conditions'],
    ['/legal', 'Legal Notice'],
    ['/changelog', 'Changelog'],
    ['/documentation', 'Documentation'],
  ] as const;
  for (const [path, heading] of documents) {
    test(`${path} renders its markdown document`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(1);
    });
  }

  test('the documentation renders its tables', async ({ page }) => {
    await page.goto('/documentation');
    await expect(page.getByRole('table').first()).toBeVisible();
    expect(await page.getByRole('table').count()).toBeGreaterThan(1);
  });

  test('the changelog ends at the current version', async ({ page }) => {
    await page.goto('/changelog');
    await expect(page.getByRole('heading', { level: 2 }).first()).toContainText('1.6.1');
  });

  test('the footer links every document, contact and a social link', async ({ page }) => {
    await page.goto('/home');
    const footer = page.getByRole('navigation', { name: 'Footer' });
    const expected = [
      ['Timeboxer home', '/home'],
      ['Contact Us', '/contact'],
      ['Legal Notice', '/legal'],
      ['Terms and Conditions', '/terms'],
      ['Privacy Policy', '/privacy'],
      ['Documentation', '/documentation'],
      ['Changelog', '/changelog'],
    ] as const;
    for (const [name, href] of expected) {
      await expect(footer.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    await expect(footer.getByRole('link', { name: /Follow us/ })).toHaveAttribute('href', /^https:\/\//);
    await footer.getByRole('link', { name: 'Terms and Conditions' }).click();
    await expect(page.getByRole('heading', { name: 'Terms and Conditions', level: 1 })).toBeVisible();
  });

  test('/subscriptionsuccess congratulates, then opens the profile after 3 seconds', async ({ page }) => {
    await page.goto('/subscriptionsuccess');
    await expect(page.getByText('Congratulations!')).toBeVisible();
    await page.waitForTimeout(2000);
    await expect(page).toHaveURL(/\/subscriptionsuccess$/);
    await expect(page).toHaveURL(/\/profile$/, { timeout: 4000 });
  });

  test('an unknown page says so', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});

test.describe('signed in', () => {
  test('/ leads to the dashboard; the dashboard and profile show the account', async ({ page }) => {
    const person = newPerson('Hedy', 'Lamarr');
    await signedIn(page, 'Google', person);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const row of [
      'Status',
      'Integrations',
      'Time Box Settings',
      'Calendar Settings',
      'Advanced Settings',
    ]) {
      await expect(page.getByRole('heading', { name: row, level: 2 })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'How it works' })).toHaveCount(0);

    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Your Profile' })).toBeVisible();
    const personal = page.getByRole('region', { name: 'Personal Data' });
    await expect(personal.getByText(person.name)).toBeVisible();
    await expect(personal.getByText(person.email)).toBeVisible();
    await expect(personal.getByText('Google', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Subscription' }).getByText('Free Trial')).toBeVisible();
    await expect(page.getByText(/Trial ends on [A-Z][a-z]+ \d{1,2}(st|nd|rd|th) \d{4}/)).toBeVisible();
    await page.getByRole('link', { name: 'Back to dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('/login sends a signed-in user to the dashboard', async ({ page }) => {
    await signedIn(page, 'Facebook', newPerson('Emmy', 'Noether'));
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
