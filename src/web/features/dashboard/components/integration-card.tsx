import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../../components/status-badge.tsx';

export type IntegrationState = 'connected' | 'reconnect' | 'disconnected';

const BADGES = {
  connected: { tone: 'ok', text: 'Connected' },
  reconnect: { tone: 'warning', text: 'Connect again' },
  disconnected: { tone: 'error', text: 'Not connected' },
} as const;

type Props = {
  title: string;
  icon: ReactNode;
  state: IntegrationState;
  extraBadge?: ReactNode;
  description: ReactNode;
  actions: ReactNode;
};

/** The frame both integration cards share: name, state badge, what it means, and what to do. */
export function IntegrationCard({ title, icon, state, extraBadge, description, actions }: Props) {
  const badge = BADGES[state];
  return (
    <Card withBorder p={{ base: 'sm', sm: 'md' }} component="article" aria-label={`${title} integration`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" gap="xs">
          <Group gap="xs" wrap="nowrap">
            {icon}
            <Title order={3} size="h5">
              {title}
            </Title>
          </Group>
          <Group gap={6}>
            <StatusBadge tone={badge.tone}>{badge.text}</StatusBadge>
            {extraBadge}
          </Group>
        </Group>
        <Text size="sm" style={{ flex: 1 }}>
          {description}
        </Text>
        <Group gap="xs">{actions}</Group>
      </Stack>
    </Card>
  );
}
