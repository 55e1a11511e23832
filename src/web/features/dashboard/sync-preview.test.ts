import { describe, expect, it } from 'vitest';
import { eventsToTasksText, mainCalendarDefaultWarning, tasksToEventsText } from './sync-preview.ts';

describe('sync preview texts', () => {
  it('counts tasks and events, in the singular for one', () => {
    expect(tasksToEventsText(3, 'Work')).toBe('3 tasks will become events in Work');
    expect(tasksToEventsText(0, 'Work')).toBe('0 tasks will become events in Work');
    expect(tasksToEventsText(1, 'Work')).toBe('1 task will become an event in Work');
    expect(eventsToTasksText(12)).toBe('12 events will become tasks');
    expect(eventsToTasksText(1)).toBe('1 event will become a task');
  });

  it('warns about the default colour on Google and no category on Microsoft', () => {
    const google = mainCalendarDefaultWarning('Google Calendar');
    expect(google.message).toMatch(/main calendar with the default colour/);
    expect(google.message).toMatch(/every existing event from today on becomes a Todoist task/);
    expect(google.message).toMatch(/choosing an event colour/);
    const microsoft = mainCalendarDefaultWarning('Microsoft');
    expect(microsoft.message).toMatch(/main calendar with no category/);
    expect(microsoft.message).toMatch(/choosing a category/);
  });
});
