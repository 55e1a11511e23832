import { expect, type Locator, type Page } from '@playwright/test';
import type { Person } from './helpers.ts';

/** `YYYY-MM-DDTHH:MM` for a datetime-local field: tomorrow at `hour` (the browser's zone). */
export function tomorrowAt(hour: number): string {
  const date = new Date(Date.now() + 24 * 3600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(hour)}:00`;
}

/**
 * Opens /sandbox for a signed-in person whose Todoist and Google Calendar use their own e-mail, and
 * waits until both panels show those accounts, the calendar panel on the Timeboxer calendar.
 */
export async function openSandbox(page: Page, person: Person) {
  await page.goto('/sandbox');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(person.email);
  await expect(page.getByLabel('Calendar account e-mail')).toHaveValue(person.email);
  const todoist = page.getByRole('region', { name: 'Todoist' });
  const calendar = page.getByRole('region', { name: 'Google Calendar' });
  await expect(calendar.getByLabel('Calendar', { exact: true })).toHaveValue('Timeboxer');
  return { todoist, calendar, activity: page.getByRole('region', { name: 'Sync activity' }) };
}

/** Adds a task in the sandbox's Todoist panel through its dialog; `due` as for a datetime-local field. */
export async function addSandboxTask(
  page: Page,
  todoist: Locator,
  task: { content: string; due?: string; labels?: string[] },
) {
  await todoist.getByRole('button', { name: 'Add task' }).click();
  const dialog = page.getByRole('dialog', { name: 'New task' });
  await dialog.getByLabel('Task').fill(task.content);
  if (task.due) await dialog.getByLabel('Due').fill(task.due);
  for (const label of task.labels ?? []) {
    await dialog.getByLabel('Labels').fill(label);
    await dialog.getByLabel('Labels').press('Enter');
  }
  await dialog.getByRole('button', { name: 'Add task' }).click();
  await expect(dialog).toBeHidden();
}
