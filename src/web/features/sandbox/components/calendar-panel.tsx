import { Button, Card, Group, Modal, SegmentedControl, Select, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { SandboxCalendarProvider, SandboxEvent } from '#shared/api/sandbox.schema.ts';
import { sandboxCalls, useSandboxCalendar, useSandboxChange } from '../sandbox-api.ts';
import { AccountEmailInput, useAccountEmail } from './account-email-input.tsx';
import { EventForm, type EventFormValues } from './event-form.tsx';
import { EventList } from './event-list.tsx';
import { ChangeFailedAlert, ReadStatus } from './panel-status.tsx';

const SERVICES: { value: SandboxCalendarProvider; label: string }[] = [
  { value: 'google', label: 'Google Calendar' },
  { value: 'microsoft', label: 'Microsoft 365' },
];

type Props = {
  initialEmail: string;
  initialProvider: SandboxCalendarProvider;
  /** The calendar chosen for sync, when the visitor connected this account. */
  initialCalendarId?: string;
};

/**
 * An emulated calendar on Google Calendar or Microsoft 365, first the one the visitor connected: one
 * calendar's events from yesterday to two weeks ahead, and the changes a person would make there.
 */
export function CalendarPanel({ initialEmail, initialProvider, initialCalendarId }: Props) {
  const { email: typed, setEmail, account: email } = useAccountEmail(initialEmail);
  const [provider, setProvider] = useState<SandboxCalendarProvider>(initialProvider);
  const [chosenCalendar, setChosenCalendar] = useState<string | undefined>(initialCalendarId);
  const calendar = useSandboxCalendar(email, provider, chosenCalendar);
  // Until the chosen account's calendars are read, the previous ones are shown but not changed.
  const calendarId = calendar.isPlaceholderData ? '' : (calendar.data?.calendarId ?? '');
  const [editing, setEditing] = useState<SandboxEvent | 'new' | null>(null);
  const add = useSandboxChange('calendar', sandboxCalls.addEvent);
  const update = useSandboxChange('calendar', sandboxCalls.updateEvent);
  const remove = useSandboxChange('calendar', sandboxCalls.deleteEvent);
  const title = SERVICES.find((service) => service.value === provider)?.label ?? '';

  const switchTo = (value: string) => {
    const next = SERVICES.find((service) => service.value === value);
    if (!next || next.value === provider) return;
    setProvider(next.value);
    setChosenCalendar(undefined);
    setEditing(null);
    for (const mutation of [add, update, remove]) mutation.reset();
  };

  const save = (values: EventFormValues) => {
    const done = { onSuccess: () => setEditing(null) };
    if (editing === 'new') add.mutate({ email, provider, calendarId, ...values }, done);
    else if (editing) update.mutate({ id: editing.id, email, provider, calendarId, ...values }, done);
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          {title}
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
      <AccountEmailInput
        label="Calendar account e-mail"
        value={typed}
        onChange={(value) => {
          setEmail(value);
          setChosenCalendar(undefined);
        }}
      />
      <SegmentedControl
        aria-label="Calendar service"
        data={SERVICES}
        value={provider}
        onChange={switchTo}
        fullWidth
        size="xs"
        mb="sm"
      />
      {calendar.data && (
        <Select
          label="Calendar"
          mb="sm"
          data={calendar.data.calendars.map((entry) => ({ value: entry.id, label: entry.name }))}
          value={calendar.data.calendarId}
          onChange={(value) => setChosenCalendar(value ?? undefined)}
          allowDeselect={false}
          disabled={calendar.isPlaceholderData}
        />
      )}
      <ChangeFailedAlert changes={[add, update, remove]} />
      <ReadStatus
        query={calendar}
        loadingLabel="Loading events"
        failedText="The emulated calendar could not be read"
      />
      {calendar.data && calendar.data.events.length === 0 && (
        <Text c="dimmed">No events in the next two weeks.</Text>
      )}
      <EventList
        busy={calendar.isPlaceholderData}
        events={calendar.data?.events ?? []}
        onEdit={setEditing}
        onDelete={(event) => remove.mutate({ email, provider, calendarId, id: event.id })}
      />
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
            offerTodoistSync={provider === 'google'}
            onSubmit={save}
          />
        )}
      </Modal>
    </Card>
  );
}
