import { Badge, Box, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowsExchange, IconCircle } from '@tabler/icons-react';

const tasks = [
  { title: 'Write project update', time: '9:00', label: '@30Minutes', color: 'blue' },
  { title: 'Review pull requests', time: '10:00', label: '@1_h', color: 'grape' },
  { title: 'Plan next sprint', time: '11:30', label: '@60_min', color: 'indigo' },
];

const HOUR_PX = 44;
const FIRST_HOUR = 9;
const blocks = [
  { title: 'Write project update', start: 9, minutes: 30, color: 'blue' },
  { title: 'Review pull requests', start: 10, minutes: 60, color: 'grape' },
  { title: 'Plan next sprint', start: 11.5, minutes: 60, color: 'indigo' },
];

/** Todoist tasks with timebox labels on the left, the same tasks as calendar blocks on the right. */
export function SyncIllustration() {
  return (
    <Group
      role="img"
      aria-label="Three Todoist tasks with timebox labels, shown as blocks of time on a calendar"
      gap="sm"
      wrap="nowrap"
      align="stretch"
      w="100%"
    >
      <Paper withBorder shadow="md" p="sm" style={{ flex: 1, minWidth: 0 }}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb="xs">
          Todoist · Today
        </Text>
        <Stack gap={8}>
          {tasks.map((task) => (
            <Group key={task.title} gap={8} wrap="nowrap" align="flex-start">
              <IconCircle size={16} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
              <Box style={{ minWidth: 0 }}>
                <Text size="sm" truncate>
                  {task.title}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" c="dimmed">
                    {task.time}
                  </Text>
                  <Badge size="xs" variant="light" color={task.color} tt="none">
                    {task.label}
                  </Badge>
                </Group>
              </Box>
            </Group>
          ))}
        </Stack>
      </Paper>
      <ThemeIcon variant="light" radius="xl" size="lg" style={{ alignSelf: 'center', flexShrink: 0 }}>
        <IconArrowsExchange size={18} aria-hidden />
      </ThemeIcon>
      <Paper withBorder shadow="md" p="sm" style={{ flex: 1, minWidth: 0 }}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb="xs">
          Calendar · Today
        </Text>
        <Box pos="relative" h={HOUR_PX * 4}>
          {[9, 10, 11, 12].map((hour) => (
            <Box
              key={hour}
              pos="absolute"
              top={(hour - FIRST_HOUR) * HOUR_PX}
              left={0}
              right={0}
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <Text size="10px" c="dimmed">
                {hour}:00
              </Text>
            </Box>
          ))}
          {blocks.map((block) => (
            <Box
              key={block.title}
              pos="absolute"
              left={36}
              right={0}
              top={(block.start - FIRST_HOUR) * HOUR_PX + 1}
              h={(block.minutes / 60) * HOUR_PX - 3}
              px={6}
              style={{
                borderRadius: 6,
                background: `var(--mantine-color-${block.color}-light)`,
                borderLeft: `3px solid var(--mantine-color-${block.color}-filled)`,
                overflow: 'hidden',
              }}
            >
              <Text size="xs" fw={600} truncate>
                {block.title}
              </Text>
            </Box>
          ))}
        </Box>
      </Paper>
    </Group>
  );
}
