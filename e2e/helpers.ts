import { randomBytes } from 'node:crypto';
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

/** Signs in from the login page through an emulated provider's page, as a person would. */
export async function signIn(page: Page, provider: 'Google' | 'Facebook', person: Person) {
  await page.goto('/login');
  await page.getByRole('link', { name: `Log in with ${provider}` }).click();
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Name').fill(person.name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}
