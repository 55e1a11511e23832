import { test as base, expect } from '@playwright/test';

export { expect };

/** Stand-ins for the third-party scripts the e2e server is configured with (see playwright.config.ts). */
export const THIRD_PARTY = {
  analytics: 'https://analytics.example/tracker.js',
  chat: 'https://chat.example/widget.js',
} as const;

type Fixtures = { thirdPartyRequests: { analytics: number; chat: number } };

/**
 * Every test: third-party scripts are answered locally (nothing leaves the machine) and counted,
 * so a test can tell whether the page loaded them.
 */
export const test = base.extend<Fixtures>({
  thirdPartyRequests: [
    async ({ context }, use) => {
      const counts = { analytics: 0, chat: 0 };
      await context.route(THIRD_PARTY.analytics, (route) => {
        counts.analytics += 1;
        return route.fulfill({ contentType: 'text/javascript', body: 'window.__analyticsLoaded = true;' });
      });
      await context.route(THIRD_PARTY.chat, (route) => {
        counts.chat += 1;
        return route.fulfill({ contentType: 'text/javascript', body: 'window.__chatLoaded = true;' });
      });
      await use(counts);
    },
    { auto: true },
  ],
});

/** A browser state in which the visitor has already answered the cookie banner (analytics off). */
export const consentGiven = {
  cookies: [
    {
      name: 'timeboxer-consent',
      value: encodeURIComponent(JSON.stringify({ isSet: true, analytical: false })),
      domain: 'localhost',
      path: '/',
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax' as const,
    },
  ],
  origins: [],
};
