import { choose } from './dashboard-helpers.ts';
import { expect, test } from './fixtures.ts';
import { newPerson, seriousViolations } from './helpers.ts';
import { signedIn } from './setup-through-api.ts';

test('a Todoist project is made, a task added into it and moved to the Inbox, and the project archived on /sandbox', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const person = newPerson('Petra', 'Projects');
  await signedIn(page, 'Google', person);
  await page.goto('/sandbox');
  await expect(page.getByLabel('Todoist account e-mail')).toHaveValue(person.email);
  const todoist = page.getByRole('region', { name: 'Todoist' });
  const projects = todoist.getByRole('region', { name: 'Projects' });
  await expect(projects.getByRole('listitem')).toHaveText([/#Inbox/]);

  // A project, and a sub-project under it.
  await projects.getByRole('button', { name: 'Add project' }).click();
  const newProject = page.getByRole('dialog', { name: 'New project' });
  await newProject.getByLabel('Project name').fill('Launch');
  await newProject.getByRole('button', { name: 'Add project' }).click();
  await expect(newProject).toBeHidden();
  await projects.getByRole('button', { name: 'Add project' }).click();
  await newProject.getByLabel('Project name').fill('Press kit');
  await choose(newProject, page, 'Parent project', 'Launch');
  await newProject.getByRole('button', { name: 'Add project' }).click();
  await expect(newProject).toBeHidden();
  await expect(projects.getByRole('listitem')).toHaveText([/#Inbox/, /#Launch/, /#Press kit/]);

  // A task added into the project shows it, and the project counts it.
  await todoist.getByRole('button', { name: 'Add task' }).click();
  const newTask = page.getByRole('dialog', { name: 'New task' });
  await newTask.getByLabel('Task').fill('Write the announcement');
  await expect(newTask.getByRole('combobox', { name: 'Project' })).toHaveValue('Inbox');
  await newTask.getByRole('combobox', { name: 'Project' }).click();
  await expect(page.getByRole('option')).toHaveText(['Inbox', 'Launch', 'Press kit']);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-projects-task-form-1280.png' });
  await page.getByRole('option', { name: 'Launch', exact: true }).click();
  await newTask.getByRole('button', { name: 'Add task' }).click();
  await expect(newTask).toBeHidden();
  const task = todoist.getByRole('listitem', { name: 'Write the announcement' });
  await expect(task).toContainText('#Launch');
  await expect(projects.getByRole('listitem').nth(1)).toContainText('1 open task');
  await page.waitForTimeout(300);
  expect(await seriousViolations(page), 'sandbox with projects').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-projects-1280.png', fullPage: true });

  // Moving it to the Inbox is an edit naming another project.
  await task.getByRole('button', { name: 'Edit Write the announcement' }).click();
  const editTask = page.getByRole('dialog', { name: 'Edit task' });
  await expect(editTask.getByRole('combobox', { name: 'Project' })).toHaveValue('Launch');
  await choose(editTask, page, 'Project', 'Inbox');
  await editTask.getByRole('button', { name: 'Save task' }).click();
  await expect(editTask).toBeHidden();
  await expect(task).toContainText('#Inbox');
  await expect(projects.getByRole('listitem').first()).toContainText('1 open task');

  // Archived, the project and its sub-project leave the list for the archived ones; the task stays.
  await projects.getByRole('button', { name: 'Archive project Launch', exact: true }).click();
  const archived = projects.getByRole('region', { name: 'Archived projects' });
  await expect(archived.getByRole('listitem')).toHaveText([/#Launch/, /#Press kit/]);
  await expect(projects.getByRole('list').first().getByRole('listitem')).toHaveText([/#Inbox/]);
  await expect(task).toBeVisible();
  // The Inbox offers nothing to archive or delete.
  await expect(projects.getByRole('button', { name: /Inbox/ })).toHaveCount(0);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(300);
  expect(await seriousViolations(page), 'archived projects at 375 px').toEqual([]);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-projects-375.png', fullPage: true });

  await archived.getByRole('button', { name: 'Unarchive project Launch' }).click();
  await expect(projects.getByRole('list').first().getByRole('listitem')).toHaveText([/#Inbox/, /#Launch/]);
  await expect(archived.getByRole('listitem')).toHaveText([/#Press kit/]);

  // A new project goes under an active one only.
  await projects.getByRole('button', { name: 'Add project' }).click();
  await newProject.getByRole('combobox', { name: 'Parent project' }).click();
  await expect(page.getByRole('option')).toHaveText(['Launch']);
  await page.screenshot({ path: 'e2e-artifacts/sandbox-projects-new-375.png' });
});
