import { Alert, Button, Card, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import { isConnected, sortTimeboxes, type TimeboxSetting } from '#shared/settings/rules.ts';
import { successesOnly, useSaveStatus } from '../../../lib/save-status.ts';
import { findTodoistLabel } from '../timebox-form.ts';
import { CardHeader } from './card-header.tsx';
import { RemoveTimeboxModal } from './remove-timebox-modal.tsx';
import { TimeboxModal } from './timebox-modal.tsx';
import { TimeboxRow } from './timebox-row.tsx';

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; setting: TimeboxSetting }
  | { kind: 'remove'; setting: TimeboxSetting };

/**
 * The timebox settings (docs/product-rules.md §2): label, duration, hours; add, edit and remove. Each
 * dialog saves with its button and shows a failure itself; once it closes, the title says "Saved".
 */
export function TimeboxTable({ todo }: { todo: TodoSettings }) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const status = useSaveStatus();
  const dialogStatus = successesOnly(status);
  const durationsActive = todo.taskDurationSettings.active;
  const todoistReady = todo.connected && !!todo.userId;
  const settings = sortTimeboxes(todo.timeboxSettings);

  return (
    <Card
      withBorder
      p={{ base: 'xs', sm: 'md' }}
      component="article"
      aria-labelledby="timebox-settings-title"
    >
      <Stack gap="sm">
        <CardHeader title="Timebox settings" titleId="timebox-settings-title" status={status}>
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!todoistReady || durationsActive}
            onClick={() => setDialog({ kind: 'add' })}
          >
            Add new Timebox setting
          </Button>
        </CardHeader>
        <Text size="sm">
          A timebox setting turns a Todoist label into a duration: a task with the label and a due time
          becomes a calendar event that long.
        </Text>
        {durationsActive && (
          <Alert
            color="blue"
            icon={<IconInfoCircle aria-hidden />}
            styles={{ message: { color: 'var(--mantine-color-text)' } }}
          >
            Task durations are active, so timebox settings are not used and cannot be changed. Switch task
            durations off to use them again.
          </Alert>
        )}
        {!todoistReady && !durationsActive && (
          <Text size="sm" fw={500}>
            Connect Todoist to add timebox settings.
          </Text>
        )}
        {settings.length === 0 ? (
          <Text size="sm" c="dimmed">
            No timebox settings yet. Start with three, for example 15, 30 and 60 minutes.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={260}>
            <Table
              aria-labelledby="timebox-settings-title"
              verticalSpacing="xs"
              horizontalSpacing={6}
              style={durationsActive ? { opacity: 0.6 } : undefined}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Label</Table.Th>
                  <Table.Th>Duration (minutes)</Table.Th>
                  <Table.Th>Hours</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {settings.map((setting) => (
                  <TimeboxRow
                    key={setting.label}
                    setting={setting}
                    todoistLabel={findTodoistLabel(todo.labels, setting.label)}
                    labelsKnown={isConnected(todo)}
                    disabled={durationsActive}
                    editable={todoistReady}
                    onEdit={() => setDialog({ kind: 'edit', setting })}
                    onRemove={() => setDialog({ kind: 'remove', setting })}
                    status={status}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {dialog?.kind === 'add' && (
        <TimeboxModal todo={todo} status={dialogStatus} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'edit' && (
        <TimeboxModal
          todo={todo}
          editing={dialog.setting}
          status={dialogStatus}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'remove' && (
        <RemoveTimeboxModal
          todo={todo}
          setting={dialog.setting}
          status={dialogStatus}
          onClose={() => setDialog(null)}
        />
      )}
    </Card>
  );
}
