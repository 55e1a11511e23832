import { Checkbox, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { SandboxEvent } from '#shared/api/sandbox.schema.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import { fromLocalInput, toLocalInput } from '../local-date-time.ts';
import { ItemForm } from './item-form.tsx';
import { LocalDateTimeInput } from './local-date-time-input.tsx';

export type EventFormValues = { summary: string; start: string; end: string; fromTodoistSync: boolean };

type Props = {
  event?: SandboxEvent;
  submitLabel: string;
  busy: boolean;
  /** Offer to make the new event as Todoist's own calendar integration would (Google Calendar only). */
  offerTodoistSync: boolean;
  onSubmit: (values: EventFormValues) => void;
};

const inOneHour = () => {
  const start = new Date(Date.now() + 3_600_000);
  start.setMinutes(0, 0, 0);
  return start;
};

/**
 * Adds or edits an emulated calendar event: title, start and end; a new Google Calendar event can be
 * made as Todoist's own calendar integration would have made it.
 */
export function EventForm({ event, submitLabel, busy, offerTodoistSync, onSubmit }: Props) {
  const defaultStart = inOneHour();
  const { timeZone } = useDisplayZone();
  const [summary, setSummary] = useState(event?.summary ?? '');
  const [fromTodoistSync, setFromTodoistSync] = useState(false);
  const [start, setStart] = useState(toLocalInput(event?.start ?? defaultStart.toISOString(), timeZone));
  const [end, setEnd] = useState(
    toLocalInput(event?.end ?? new Date(defaultStart.getTime() + 1_800_000).toISOString(), timeZone),
  );
  const startIso = fromLocalInput(start, timeZone);
  const endIso = fromLocalInput(end, timeZone);
  const backwards = !!startIso && !!endIso && Date.parse(endIso) <= Date.parse(startIso);
  const invalid = summary.trim() === '' || !startIso || !endIso || backwards;

  return (
    <ItemForm
      submitLabel={submitLabel}
      busy={busy}
      invalid={invalid}
      onSubmit={() => {
        if (!startIso || !endIso) return;
        const marked = fromTodoistSync && offerTodoistSync && !event;
        onSubmit({ summary: summary.trim(), start: startIso, end: endIso, fromTodoistSync: marked });
      }}
    >
      <TextInput label="Title" value={summary} onChange={(e) => setSummary(e.currentTarget.value)} required />
      {/* One under the other: side by side, the dialog's width cuts a date and time short. */}
      <LocalDateTimeInput label="Start" value={start} onChange={setStart} required />
      <LocalDateTimeInput
        label="End"
        value={end}
        onChange={setEnd}
        error={backwards ? 'The end must be after the start' : undefined}
        required
      />
      {!event && offerTodoistSync && (
        <Checkbox
          // Not "…calendar sync": a label holding "end" (calENDar) would also answer to the End field's name.
          label="Made by Todoist’s own integration"
          description="As Todoist’s Google Calendar integration writes it: linked to a Todoist task in its description. Timeboxer leaves such events alone."
          checked={fromTodoistSync}
          onChange={(e) => setFromTodoistSync(e.currentTarget.checked)}
        />
      )}
      {!event && (
        <Text size="xs" c="dimmed">
          A new single event in the synced calendar becomes a Todoist task.
        </Text>
      )}
    </ItemForm>
  );
}
