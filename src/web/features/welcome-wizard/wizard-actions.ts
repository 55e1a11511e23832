import { countOf } from '#shared/text/count-of.ts';
import { INTEGRATION_DISPLAY_NAMES } from '../../lib/integration-names.ts';
import { sectionIds } from '../../lib/paths.ts';
import type { CalendarProvider, SetupProgress } from '../../lib/setup-steps.ts';

/** The setup a wizard step can start: connecting the accounts, a timebox setting, the calendar. */
export type WizardAction = 'connect' | 'timebox' | 'calendar';

/**
 * One line of a step's action area: a step already done, a connection to make (a link to the provider's
 * consent page), a button that closes the guide and goes to a dashboard section, or why it cannot be done yet.
 */
export type WizardActionItem =
  | { kind: 'done'; text: string }
  | { kind: 'connect'; providers: ('Todoist' | CalendarProvider)[]; again: boolean }
  | { kind: 'go'; label: string; sectionId: string; hint: string }
  | { kind: 'blocked'; text: string };

/** What a step offers, given where the user stands: the done ones say so instead of offering the button. */
export function wizardActions(action: WizardAction, progress: SetupProgress): WizardActionItem[] {
  const calendarName = progress.calendarProvider
    ? INTEGRATION_DISPLAY_NAMES[progress.calendarProvider]
    : null;
  switch (action) {
    case 'connect':
      return [
        progress.done['connect-todoist']
          ? { kind: 'done', text: 'Todoist is connected ✓' }
          : { kind: 'connect', providers: ['Todoist'], again: progress.todoistAgain },
        progress.done['connect-calendar']
          ? { kind: 'done', text: `${calendarName} is connected ✓` }
          : progress.calendarProvider
            ? { kind: 'connect', providers: [progress.calendarProvider], again: progress.calendarAgain }
            : { kind: 'connect', providers: ['Google Calendar', 'Microsoft'], again: false },
      ];
    case 'timebox':
      if (progress.done['add-timebox'])
        return [
          {
            kind: 'done',
            text: `You have ${countOf(progress.timeboxCount, 'timebox setting')} ✓`,
          },
        ];
      if (!progress.done['connect-todoist'])
        return [
          { kind: 'blocked', text: 'Connect Todoist first (step 3): its labels become your timeboxes.' },
        ];
      return [
        {
          kind: 'go',
          label: 'Add a timebox setting',
          sectionId: sectionIds.timeboxSettings,
          hint: 'This closes the guide and takes you to the Time Box Settings.',
        },
      ];
    case 'calendar':
      if (progress.done['choose-calendar'])
        return [{ kind: 'done', text: `Timeboxer syncs with the calendar “${progress.calendarName}” ✓` }];
      if (!progress.done['connect-calendar'])
        return [{ kind: 'blocked', text: 'Connect a calendar first (step 3) to choose one.' }];
      return [
        {
          kind: 'go',
          label: 'Choose your calendar',
          sectionId: sectionIds.calendarSettings,
          hint: 'This closes the guide and takes you to the Calendar Settings.',
        },
      ];
  }
}
