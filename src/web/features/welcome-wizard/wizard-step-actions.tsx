import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { ConnectButton } from '../../components/connect-button.tsx';
import type { WizardActionItem } from './wizard-actions.ts';

type Props = {
  items: WizardActionItem[];
  /** Closes the guide (marking it seen) and takes the user to a dashboard section. */
  onGo: (sectionId: string) => void;
};

/** A step's action area: what is done, and the button for what is not. */
export function WizardStepActions({ items, onGo }: Props) {
  // One filled button, on what comes first: connecting Todoist before the calendar.
  const first = items.findIndex((item) => item.kind === 'connect' || item.kind === 'go');
  return (
    <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-default-hover)">
      <Stack gap="xs">
        {items.map((item, index) => (
          <ActionLine key={keyOf(item)} item={item} primary={index === first} onGo={onGo} />
        ))}
      </Stack>
    </Paper>
  );
}

type LineProps = { item: WizardActionItem; primary: boolean; onGo: Props['onGo'] };

function ActionLine({ item, primary, onGo }: LineProps) {
  switch (item.kind) {
    case 'done':
      return <Text fw={600}>{item.text}</Text>;
    case 'connect':
      return (
        <Group gap="xs">
          {item.providers.map((provider, index) => (
            <ConnectButton
              key={provider}
              provider={provider}
              again={item.again}
              variant={primary && index === 0 ? 'filled' : 'default'}
            />
          ))}
        </Group>
      );
    case 'go':
      return (
        <Stack gap={4} align="flex-start">
          <Button
            rightSection={<IconArrowRight size={16} aria-hidden />}
            onClick={() => onGo(item.sectionId)}
          >
            {item.label}
          </Button>
          <Text size="sm" c="dimmed">
            {item.hint}
          </Text>
        </Stack>
      );
    case 'blocked':
      return (
        <Text size="sm" fw={500}>
          {item.text}
        </Text>
      );
  }
}

function keyOf(item: WizardActionItem): string {
  if (item.kind === 'connect') return `connect-${item.providers.join('-')}`;
  if (item.kind === 'go') return `go-${item.sectionId}`;
  return `${item.kind}-${item.text}`;
}
