import { createCommand, parseWebhookPayload } from '@doist/todoist-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { setUpReceiver } from '../shared/testing/set-up-receiver.ts';
import { control, setUpSeededTodoist } from './todoist.test-support.ts';

/** The `project:*` webhook events Todoist documents, and `item:updated` for a moved task. */

type Event = {
  event_name: string;
  event_data: Record<string, unknown>;
  event_data_extra?: Record<string, unknown>;
};

let received: string[] = [];

const receiver = setUpReceiver('/todoist', (body) => {
  received.push(body);
  return undefined;
});
const todoist = setUpSeededTodoist({
  email: 'ada@example.com',
  scopes: ['data:read_write', 'data:delete', 'project:delete'],
});
beforeEach(async () => {
  await control(todoist.origin, 'webhook', { url: receiver.address() });
  received = [];
});

/** The deliveries so far, each checked against the SDK's webhook schema. */
async function events(): Promise<Event[]> {
  await control(todoist.origin, 'notifications/flush');
  for (const body of received) expect(() => parseWebhookPayload(JSON.parse(body))).not.toThrow();
  return received.map((body) => JSON.parse(body));
}

describe('project events', () => {
  it('sends project:added, updated, archived, unarchived and deleted with the project', async () => {
    const work = await todoist.api.addProject({ name: 'Work', color: 'blue' });
    await todoist.api.updateProject(work.id, { name: 'Job' });
    await todoist.api.archiveProject(work.id);
    await todoist.api.unarchiveProject(work.id);
    await todoist.api.deleteProject(work.id);
    const sent = await events();
    expect(sent.map((event) => event.event_name)).toEqual([
      'project:added',
      'project:updated',
      'project:archived',
      'project:unarchived',
      'project:deleted',
    ]);
    expect(sent[0]?.event_data).toMatchObject({
      id: work.id,
      name: 'Work',
      color: 'blue',
      is_archived: false,
    });
    expect(sent[1]?.event_data).toMatchObject({ name: 'Job' });
    expect(sent[2]?.event_data).toMatchObject({ is_archived: true });
    expect(sent[3]?.event_data).toMatchObject({ is_archived: false });
    expect(sent[4]?.event_data).toMatchObject({ id: work.id, is_deleted: true });
  });

  it('sends them for Sync commands: a move is an update; sub-projects get events of their own', async () => {
    const { tempIdMapping } = await todoist.api.sync({
      commands: [
        createCommand('project_add', { name: 'Work' }, 'tmp-work'),
        createCommand('project_add', { name: 'Meetings', parentId: 'tmp-work' }, 'tmp-meetings'),
        createCommand('item_add', { content: 'Standup', projectId: 'tmp-meetings' }),
      ],
    });
    const work = tempIdMapping?.['tmp-work'] ?? '';
    const meetings = tempIdMapping?.['tmp-meetings'] ?? '';
    for (const command of [
      createCommand('project_move', { id: meetings, parentId: null }),
      createCommand('project_move', { id: meetings, parentId: work }),
      createCommand('project_archive', { id: work }),
      createCommand('project_unarchive', { id: work }),
      createCommand('project_delete', { id: work }),
    ]) {
      await todoist.api.sync({ commands: [command] });
    }
    const sent = await events();
    // The tasks of a deleted project get no item:deleted of their own.
    expect(sent.map((event) => event.event_name)).not.toContain('item:deleted');
    expect(
      sent
        .filter((event) => event.event_name.startsWith('project:'))
        .map((event) => [event.event_name, event.event_data.id]),
    ).toEqual([
      ['project:added', work],
      ['project:added', meetings],
      ['project:updated', meetings],
      ['project:updated', meetings],
      ['project:archived', work],
      ['project:archived', meetings],
      ['project:unarchived', work],
      ['project:deleted', meetings],
      ['project:deleted', work],
    ]);
  });
});

describe('moved tasks', () => {
  it('sends item:updated with the old item when a task moves to another project', async () => {
    const work = await todoist.api.addProject({ name: 'Work' });
    const task = await todoist.api.addTask({ content: 'Report' });
    await todoist.api.moveTask(task.id, { projectId: work.id });
    await todoist.api.sync({
      commands: [createCommand('item_move', { id: task.id, projectId: todoist.user.inboxProjectId })],
    });
    const moves = (await events()).filter((event) => event.event_name === 'item:updated');
    expect(moves).toEqual([
      expect.objectContaining({
        event_data: expect.objectContaining({ id: task.id, project_id: work.id }),
        event_data_extra: expect.objectContaining({
          old_item: expect.objectContaining({ project_id: todoist.user.inboxProjectId }),
          update_intent: 'item_updated',
        }),
      }),
      expect.objectContaining({
        event_data: expect.objectContaining({ id: task.id, project_id: todoist.user.inboxProjectId }),
      }),
    ]);
  });
});
