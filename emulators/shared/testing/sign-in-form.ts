import { expect } from 'vitest';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Checks the account form every emulated sign-in and consent page shows (`sign-in-page.ts`): Email
 * and Name, labelled and pre-filled with `account`, and the Continue and Cancel buttons.
 */
export function expectAccountForm(html: string, account: { email: string; name: string }): void {
  expect(html).toContain('<label for="email">Email</label>');
  expect(html).toMatch(
    new RegExp(`<input id="email" name="email" type="email"[^>]*value="${escapeRegExp(account.email)}"`),
  );
  expect(html).toContain('<label for="name">Name</label>');
  expect(html).toMatch(
    new RegExp(`<input id="name" name="name" type="text"[^>]*value="${escapeRegExp(account.name)}"`),
  );
  expect(html).toMatch(/<button type="submit"[^>]*>Continue<\/button>/);
  expect(html).toMatch(/<button type="submit"[^>]*>Cancel<\/button>/);
}
