import { describe, expect, it } from 'vitest';
import { syncSettings } from '#server/test/sync-settings.fixture.ts';
import { appearanceHash } from './event-write.ts';
import { calendarEvent, planInput, START, syncLink, taskSnapshot } from './plan.fixture.ts';
import { planSync } from './sync-planner.ts';

/** An event moved out of the chosen calendar and back: Outlook's new id (docs/product-rules.md §10). */
const settings = syncSettings();
const NOW = new Date('2026-07-15T06:00:00Z');
const link = syncLink({ appearanceHash: appearanceHash(settings) });
const gone = calendarEvent({ deleted: true });
const back = calendarEvent({ id: 'e2', taskTag: 't1', version: 'v9' });
const plan = (events = [gone, back], tasks = [taskSnapshot()]) =>
  planSync(planInput(settings, NOW, { links: [link], events, tasks }));

describe('an event moved out and back in one read', () => {
  it('goes on with the pair under the new id: no write, the task keeps its timebox', () => {
    for (const tasks of [[taskSnapshot()], []]) {
      const [only, ...others] = plan([gone, back], tasks);
      expect(others).toEqual([]);
      expect(only).toMatchObject({ events: [], task: null, next: { eventId: 'e2', eventVersion: 'v9' } });
      expect(only?.link?.id).toBe('l1');
    }
  });

  it('in either order of the read, and the task’s change goes to the event that came back', () => {
    const renamed = taskSnapshot({ content: 'Write more', updatedAt: '2026-07-15T05:30:00Z' });
    const [only] = plan([back, gone], [renamed]);
    expect(only?.events).toMatchObject([{ action: 'update', eventId: 'e2' }]);
    expect(only?.next).toMatchObject({ eventId: 'e2' });
  });

  it('takes no tagged event at another time (an earlier occurrence of the task), nor a linked one', () => {
    const earlier = calendarEvent({ id: 'e0', taskTag: 't1', start: new Date(START.getTime() - 86_400_000) });
    const [removed] = plan([gone, earlier]);
    expect(removed?.next).toBeNull();
    expect(removed?.task).toMatchObject({ action: 'update', taskId: 't1', labels: [] });

    const other = syncLink({ id: 'l2', taskId: 't2', eventId: 'e2' });
    const plans = planSync(planInput(settings, NOW, { links: [link, other], events: [gone, back] }));
    expect(plans.find((p) => p.link?.id === 'l1')?.next).toBeNull();
  });

  it('an event the user made carries no tag: the pair is over as for any deletion', () => {
    const untagged = calendarEvent({ id: 'e2', taskTag: null });
    const eventFirst = syncLink({ origin: 'event', appearanceHash: appearanceHash(settings) });
    const plans = planSync(planInput(settings, NOW, { links: [eventFirst], events: [gone, untagged] }));
    expect(plans.map((p) => p.task?.action)).toEqual(['delete', 'create']);
  });
});
