import { List, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { WizardAction } from './wizard-actions.ts';

/** `action`: what the step lets the user do at once, shown below its text (see `wizardActions`). */
export type WizardStep = { title: string; body: ReactNode; action?: WizardAction };

/**
 * The five steps of the welcome wizard (docs/product-rules.md §1, §2): what to know before the first sync,
 * and the setup steps it can start from where it explains them.
 */
export const WIZARD_STEPS: WizardStep[] = [
  {
    title: 'Your tasks, timeboxed in your calendar',
    body: (
      <>
        <Text>
          Timeboxer links your Todoist tasks with Google Calendar or Microsoft 365, in both directions.
        </Text>
        <Text>
          A task with a due time and a duration label such as @30Minutes becomes a calendar event of that
          length. Move the event and the task follows; a new event in your calendar becomes a task. We never
          read or store the contents of your tasks and events.
        </Text>
      </>
    ),
  },
  {
    title: 'Turn off other calendar syncs first',
    body: (
      <>
        <Text>
          If Todoist already shows your tasks in your calendar — through Todoist’s own calendar integration, a
          calendar subscription feed, or another sync tool — disable it before you start.
        </Text>
        <Text>Otherwise every task shows up twice in your calendar.</Text>
        <Text>
          Still using Todoist’s own Google Calendar sync? Timeboxer leaves its events alone and tells you on
          the dashboard when it finds them.
        </Text>
      </>
    ),
  },
  {
    title: 'Connect Todoist and your calendar',
    body: (
      <>
        <Text>Timeboxer needs both accounts:</Text>
        <List spacing={4}>
          <List.Item>connect your Todoist account,</List.Item>
          <List.Item>then connect Google Calendar or Microsoft 365.</List.Item>
        </List>
        <Text>Each opens the service’s own consent page and brings you back to this guide.</Text>
      </>
    ),
    action: 'connect',
  },
  {
    title: 'Start with three timebox settings',
    body: (
      <>
        <Text>
          A timebox setting links a Todoist label to a duration. Start with three, for example 15, 30 and 60
          minutes, with labels such as 15Minutes, 30Minutes and 1_h. You can add more at any time.
        </Text>
        <Text>
          With Todoist Premium or Business you can instead use the duration you give each task in Todoist.
        </Text>
      </>
    ),
    action: 'timebox',
  },
  {
    title: 'Careful with your main calendar',
    body: (
      <>
        <Text>Choose the calendar Timeboxer writes to in the Calendar Settings.</Text>
        <Text>
          If you choose your main calendar, give Timeboxer’s events a separate colour (Google Calendar) or
          category (Microsoft 365). Without one, all the events already in that calendar would be turned into
          Todoist tasks.
        </Text>
        <Text>When everything is in place, switch “Sync active” on in the Status row. Happy timeboxing!</Text>
      </>
    ),
    action: 'calendar',
  },
];
