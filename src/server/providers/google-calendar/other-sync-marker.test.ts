import { describe, expect, it } from 'vitest';
import { otherSyncOf } from './other-sync-marker.ts';

describe('otherSyncOf', () => {
  it('names Todoist when the description links to a Todoist task, new or old style', () => {
    expect(otherSyncOf('https://app.todoist.com/app/task/6X7rM8997g3RQmvh')).toBe('todoist');
    expect(otherSyncOf('Write the report\n\nhttps://todoist.com/showTask?id=2995104339')).toBe('todoist');
    expect(otherSyncOf('HTTP://APP.TODOIST.COM/app/task/1')).toBe('todoist');
  });

  it('names nothing for other text, other Todoist pages, or no description', () => {
    expect(otherSyncOf('Dentist, bring the card')).toBeNull();
    expect(otherSyncOf('https://todoist.com/help/articles/123')).toBeNull();
    expect(otherSyncOf('https://app.todoist.com/app/project/2203306141')).toBeNull();
    expect(otherSyncOf('')).toBeNull();
    expect(otherSyncOf(null)).toBeNull();
    expect(otherSyncOf(undefined)).toBeNull();
  });
});
