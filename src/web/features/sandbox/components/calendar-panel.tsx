import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPencil, IconPlus, IconRepeat, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { SandboxEvent } from '#shared/api/sandbox.schema.ts';
import { formatWhen } from '../local-date-time.ts';
import { sandboxCalls, useSandboxCalendar, useSandboxChange } from '../sandbox-api.ts';
import { EventForm, type EventFormValues } from './event-form.tsx';

/** The emulated Google Calendar of `email`: one calendar's events from yesterday to two weeks ahead. */
export function CalendarPanel({ email }: { email: string }) {
  const [chosenCalendar, setChosenCalendar] = useState<string | undefined>();
  const calendar = useSandboxCalendar(email, chosenCalendar);
  const calendarId = calendar.data?.calendarId ?? '';
  const [editing, setEditing] = useState<SandboxEvent | 'new' | null>(null);
  const add = useSandboxChange('calendar', sandboxCalls.addEvent);
  const update = useSandboxChange('calendar', sandboxCalls.updateEvent);
  const remove = useSandboxChange('calendar', sandboxCalls.deleteEvent);
  const failure = [add, update, remove].find((mutation) => mutation.error)?.error;

  const save = (values: EventFormValues) => {
    const done = { onSuccess: () => setEditing(null) };
    if (editing === 'new') add.mutate({ email, calendarId, ...values }, done);
    else if (editing) update.mutate({ id: editing.id, email, calendarId, ...values }, done);
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Google Calendar">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          Google Calendar
        </Title>
        <Button
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => setEditing('new')}
          disabled={!calendarId}
        >
          Add event
        </Button>
      </Group>
      {calendar.data && (
        <Select
          label="Calendar"
          mb="sm"
          data={calendar.data.calendars.map((entry) => ({ value: entry.id, label: entry.name }))}
          value={calendarId}
          onChange={(value) => setChosenCalendar(value ?? undefined)}
          allowDeselect={false}
        />
      )}
      {failure && (
        <Alert color="red" mb="sm" title="That did not work">
          {failure.message}
        </Alert>
      )}
      {calendar.isPending && <Loader role="status" size="sm" aria-label="Loading events" />}
      {calendar.isError && (
        <Alert color="red">The emulated calendar could not be read: {calendar.error.message}</Alert>
      )}
      {calendar.data && calendar.data.events.length === 0 && (
        <Text c="dimmed">No events in the next two weeks.</Text>
      )}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {calendar.data?.events.map((event) => (
          <Group
            key={event.id}
            component="li"
            justify="space-between"
            wrap="nowrap"
            gap="xs"
            aria-label={event.summary}
          >
            <div style={{ minWidth: 0 }}>
              <Text size="sm" truncate>
                {event.summary || '(no title)'}
              </Text>
              <Group gap={4}>
                <Text size="xs" c="dimmed">
                  {event.allDay
                    ? `${event.start} (all day)`
                    : `${formatWhen(event.start)} – ${formatWhen(event.end).split(', ')[1]}`}
                </Text>
                {event.recurring && <IconRepeat size={12} aria-label="repeats" />}
              </Group>
            </div>
            <Group gap={4} wrap="nowrap">
              <ActionIcon
                variant="subtle"
                aria-label={`Edit ${event.summary}`}
                onClick={() => setEditing(event)}
                disabled={event.allDay || event.recurring}
              >
                <IconPencil size={16} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${event.summary}`}
                onClick={() => remove.mutate({ email, calendarId, id: event.id })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Group>
        ))}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New event' : 'Edit event'}
      >
        {editing !== null && (
          <EventForm
            event={editing === 'new' ? undefined : editing}
            submitLabel={editing === 'new' ? 'Add event' : 'Save event'}
            busy={add.isPending || update.isPending}
            onSubmit={save}
          />
        )}
      </Modal>
    </Card>
  );
}
