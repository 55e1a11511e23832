import { Checkbox, Chip, Group, Input, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useId } from 'react';
import {
  type AutoplanDraft,
  chipsOfDays,
  type DraftField,
  daysFromChips,
  gapOptions,
  otherCalendarsBox,
  WEEKDAYS,
} from '../autoplan-draft.ts';

type Props = {
  draft: AutoplanDraft;
  errors: Partial<Record<DraftField, string>>;
  disabled: boolean;
  /** How the zone the working hours are read in is named (the Todoist account's). */
  zoneLabel: string;
  /** The sync writes to the account's main calendar (other calendars then count only when chosen). */
  mainCalendarChosen: boolean;
  onChange: (draft: AutoplanDraft) => void;
};

/** Working days, working hours, the gap between blocks and which calendars count as busy. */
export function AutoplanHoursForm({
  draft,
  errors,
  disabled,
  zoneLabel,
  mainCalendarChosen,
  onChange,
}: Props) {
  const others = otherCalendarsBox(draft, mainCalendarChosen);
  const daysLabel = useId();
  const daysError = useId();
  const hoursLabel = useId();
  const hoursNote = useId();

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl" verticalSpacing="lg">
      <Stack gap="lg">
        <Stack
          gap={6}
          role="group"
          aria-labelledby={daysLabel}
          aria-describedby={errors.days ? daysError : undefined}
        >
          <Input.Label id={daysLabel} component="div">
            Working days
          </Input.Label>
          <Chip.Group
            multiple
            value={chipsOfDays(draft.days)}
            onChange={(values) => onChange({ ...draft, days: daysFromChips(values) })}
          >
            <Group gap={6}>
              {WEEKDAYS.map(({ day, short, name }) => (
                <Chip key={day} value={String(day)} size="sm" disabled={disabled} title={name}>
                  {short}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {errors.days && <Input.Error id={daysError}>{errors.days}</Input.Error>}
        </Stack>

        <Stack gap={6} role="group" aria-labelledby={hoursLabel} aria-describedby={hoursNote}>
          <Input.Label id={hoursLabel} component="div">
            Working hours
          </Input.Label>
          {/* Side by side down to 375 px: two columns of at most 160 px each. */}
          <SimpleGrid cols={2} spacing="sm" maw={332}>
            <TextInput
              type="time"
              label="Start"
              value={draft.start}
              onChange={(event) => onChange({ ...draft, start: event.currentTarget.value })}
              error={errors.start}
              disabled={disabled}
            />
            <TextInput
              type="time"
              label="End"
              value={draft.end}
              onChange={(event) => onChange({ ...draft, end: event.currentTarget.value })}
              error={errors.end}
              disabled={disabled}
            />
          </SimpleGrid>
          <Text id={hoursNote} size="xs" c="dimmed">
            In {zoneLabel}.
          </Text>
        </Stack>
      </Stack>

      <Stack gap="lg">
        <Select
          label="Gap between blocks"
          description="Free time kept before and after each block it places."
          data={gapOptions(draft.gapMinutes)}
          value={String(draft.gapMinutes)}
          onChange={(value) => value !== null && onChange({ ...draft, gapMinutes: Number(value) })}
          error={errors.gapMinutes}
          allowDeselect={false}
          disabled={disabled}
          maw={320}
        />
        <Checkbox
          label="Events in my other calendars count as busy"
          description={others.description}
          checked={others.checked}
          onChange={(event) => onChange({ ...draft, otherCalendarsBusy: event.currentTarget.checked })}
          disabled={disabled}
        />
      </Stack>
    </SimpleGrid>
  );
}
