import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { ConnectButton } from '../../../components/connect-button.tsx';
import { goToSection } from '../../../lib/go-to-section.ts';
import { INTEGRATION_DISPLAY_NAMES } from '../../../lib/integration-names.ts';
import { sectionIds } from '../../../lib/paths.ts';
import { type NextStep, nextStep, SETUP_STEPS } from '../../../lib/setup-steps.ts';

/**
 * The dashboard's lead until sync is on (docs/product-rules.md §2): the one next setup step, what it is for,
 * and its button, so the settings that wait for it below do not read as a page of disabled cards.
 */
export function NextStepCard({ user }: { user: CurrentUser }) {
  const next = nextStep(user);
  if (!next) return null;
  const { title, text, action } = content(next, user);
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-label="Next step"
      bg="var(--mantine-primary-color-light)"
      style={{ borderColor: 'var(--mantine-primary-color-filled)' }}
    >
      <Stack gap="xs">
        <Text size="sm" fw={700} c="var(--mantine-color-text)">
          Next step · {next.position} of {SETUP_STEPS.length}
        </Text>
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text>{text}</Text>
        <Group gap="xs" mt={4}>
          {action}
        </Group>
      </Stack>
    </Card>
  );
}

function GoButton({ sectionId, children }: { sectionId: string; children: ReactNode }) {
  return (
    <Button
      component="a"
      href={`#${sectionId}`}
      rightSection={<IconArrowDown size={16} aria-hidden />}
      onClick={(event) => {
        if (goToSection(sectionId)) event.preventDefault();
      }}
    >
      {children}
    </Button>
  );
}

function content(next: NextStep, user: CurrentUser): { title: string; text: string; action: ReactNode } {
  const provider = next.calendarProvider;
  switch (next.step) {
    case 'connect-todoist':
      return next.again
        ? {
            title: 'Connect Todoist again',
            text: 'Todoist no longer accepts Timeboxer’s access, so nothing syncs until you connect it again.',
            action: <ConnectButton provider="Todoist" again />,
          }
        : {
            title: 'Connect Todoist',
            text: 'Start here: Timeboxer turns your Todoist tasks into calendar events. The settings below open up once Todoist and a calendar are connected.',
            action: <ConnectButton provider="Todoist" />,
          };
    case 'connect-calendar':
      return next.again && provider
        ? {
            title: `Connect ${INTEGRATION_DISPLAY_NAMES[provider]} again`,
            text: `${INTEGRATION_DISPLAY_NAMES[provider]} no longer accepts Timeboxer’s access, so nothing syncs until you connect it again.`,
            action: <ConnectButton provider={provider} again />,
          }
        : {
            title: 'Connect your calendar',
            text: 'Google Calendar or Microsoft 365: your timeboxed tasks show up there as events, and new events there become tasks.',
            action: (
              <>
                <ConnectButton provider="Google Calendar" />
                <ConnectButton provider="Microsoft" variant="default" />
              </>
            ),
          };
    case 'add-timebox':
      return {
        title: 'Add a timebox setting',
        text: 'A timebox setting turns a Todoist label into a duration. Start with three, for example 15, 30 and 60 minutes.',
        action: <GoButton sectionId={sectionIds.timeboxSettings}>Add a timebox setting</GoButton>,
      };
    case 'choose-calendar':
      return {
        title: 'Choose a calendar',
        text: `Pick the calendar Timeboxer writes to. Your main calendar? Give Timeboxer’s events their own ${provider === 'Microsoft' ? 'category' : 'colour'} first, or every event already there becomes a task.`,
        action: <GoButton sectionId={sectionIds.calendarSettings}>Choose your calendar</GoButton>,
      };
    case 'switch-sync-on':
      return {
        title: 'Switch sync on',
        text: `Everything is in place. Switch “Sync active” on in the Status card: you see what it will do${user.calendarSettings.provider ? ` in ${INTEGRATION_DISPLAY_NAMES[user.calendarSettings.provider]}` : ''} before anything changes.`,
        action: <GoButton sectionId={sectionIds.syncSwitch}>Go to Sync active</GoButton>,
      };
  }
}
