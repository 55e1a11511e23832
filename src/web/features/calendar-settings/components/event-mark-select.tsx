import { Select } from '@mantine/core';
import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { GOOGLE_EVENT_COLORS } from '#shared/settings/constants.ts';
import { ChangePreviewModal } from '../../../components/change-preview.tsx';
import { useConfirmedChange } from '../../../lib/change-preview.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import {
  fromCategoryValue,
  fromEventColorValue,
  GOOGLE_EVENT_COLOR_HEX,
  NO_CATEGORY,
  swatchColor,
  toCategoryValue,
  toEventColorValue,
} from '../calendar-colors.ts';
import { calendarCalls } from '../calendar-settings-api.ts';
import type { CalendarChange } from '../main-calendar-warning.ts';
import { ColorSwatchOption, SwatchMark } from './color-swatch-option.tsx';

type Props = {
  calendar: CalendarSettings;
  disabled: boolean;
  onChosen: (change: CalendarChange) => void;
  /** The card's confirmation. */
  status: SaveReporter;
};

/** How Timeboxer marks its events: a Google event colour, or a Microsoft category. */
export function EventMarkSelect(props: Props) {
  return props.calendar.provider === 'Microsoft' ? (
    <CategorySelect {...props} />
  ) : (
    <EventColorSelect {...props} />
  );
}

function EventColorSelect({ calendar, disabled, onChosen, status }: Props) {
  const setColor = useUserChange(calendarCalls.setColor, { status });
  const confirmation = useConfirmedChange();
  const color = setColor.isPending ? setColor.variables : calendar.color;
  const calendarColor = swatchColor(
    calendar.calendars.find((entry) => entry.id === calendar.calendarId)?.color,
  );
  const hex = (id: string) => (id === '' ? calendarColor : (GOOGLE_EVENT_COLOR_HEX[id] ?? null));

  return (
    <>
      <ChangePreviewModal confirmation={confirmation} />
      <Select
        label="Event colour"
        description="Timeboxer’s events get this colour, and only events of this colour become tasks."
        data={GOOGLE_EVENT_COLORS.map((entry) => ({ value: toEventColorValue(entry.id), label: entry.name }))}
        value={toEventColorValue(color)}
        onChange={(value) => {
          if (value === null) return;
          const next = fromEventColorValue(value);
          if (next === calendar.color) return;
          confirmation.ask(
            {
              title: 'Change the event colour?',
              query: { change: 'color', value: next },
              calendarName: null,
            },
            () => {
              onChosen({ kind: 'color', color: next });
              setColor.mutate(next);
            },
          );
        }}
        allowDeselect={false}
        disabled={disabled || setColor.isPending}
        loading={setColor.isPending}
        leftSection={<SwatchMark color={hex(color)} />}
        renderOption={({ option }) => (
          <ColorSwatchOption label={option.label} color={hex(fromEventColorValue(option.value))} />
        )}
      />
    </>
  );
}

function CategorySelect({ calendar, disabled, onChosen, status }: Props) {
  const setCategory = useUserChange(calendarCalls.setCategory, { status });
  const confirmation = useConfirmedChange();
  const category = setCategory.isPending ? setCategory.variables : calendar.category;
  const hex = (name: string | null) =>
    swatchColor(calendar.categories.find((entry) => entry.displayName === name)?.color);

  return (
    <>
      <ChangePreviewModal confirmation={confirmation} />
      <Select
        label="Category"
        description="Timeboxer’s events get this category, and only events with it become tasks."
        data={[
          { value: NO_CATEGORY, label: 'No category' },
          ...calendar.categories.map((entry) => ({ value: entry.displayName, label: entry.displayName })),
        ]}
        value={toCategoryValue(category)}
        onChange={(value) => {
          if (value === null) return;
          const next = fromCategoryValue(value);
          if (next === calendar.category) return;
          confirmation.ask(
            {
              title: 'Change the category?',
              query: { change: 'category', value: next ?? '' },
              calendarName: null,
            },
            () => {
              onChosen({ kind: 'category', category: next });
              setCategory.mutate(next);
            },
          );
        }}
        allowDeselect={false}
        disabled={disabled || setCategory.isPending}
        loading={setCategory.isPending}
        leftSection={<SwatchMark color={hex(category)} />}
        renderOption={({ option }) => (
          <ColorSwatchOption label={option.label} color={hex(fromCategoryValue(option.value))} />
        )}
      />
    </>
  );
}
