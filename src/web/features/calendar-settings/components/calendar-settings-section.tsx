import { Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';
import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { ChangePreviewModal } from '../../../components/change-preview.tsx';
import { SaveStatus } from '../../../components/save-status.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { useConfirmedChange } from '../../../lib/change-preview.ts';
import { sectionIds } from '../../../lib/paths.ts';
import { useSaveStatus } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import { swatchColor } from '../calendar-colors.ts';
import { calendarDescription, calendarOptions } from '../calendar-label.ts';
import { calendarCalls } from '../calendar-settings-api.ts';
import { type CalendarChange, needsMainCalendarWarning, warnedCalendar } from '../main-calendar-warning.ts';
import { CalendarAccountsList } from './calendar-accounts-list.tsx';
import { ColorSwatchOption, SwatchMark } from './color-swatch-option.tsx';
import { EventMarkSelect } from './event-mark-select.tsx';
import { MainCalendarWarningModal } from './main-calendar-warning-modal.tsx';
import { SettingSwitch } from './setting-switch.tsx';

/**
 * Calendar Settings (docs/product-rules.md §2): the calendar, how its events are marked, privacy, the
 * Todoist link, and the connected calendar accounts (each with its own Remove). Each saves on change (the calendar and the mark after their preview while sync is on), and
 * the title says "Saved".
 */
export function CalendarSettingsSection({ calendar }: { calendar: CalendarSettings }) {
  const [warningOpened, warning] = useDisclosure(false);
  const [warned, setWarned] = useState<ReturnType<typeof warnedCalendar>>(null);
  const confirmation = useConfirmedChange();
  const status = useSaveStatus();
  const setCalendar = useUserChange(calendarCalls.setCalendar, { status });
  // While another setting saves (the colour, say), the warnings below would judge by the old one.
  const saving = useIsMutating() > 0;
  const ready = calendar.connected && !!calendar.provider;
  const calendarId = setCalendar.isPending ? setCalendar.variables : calendar.calendarId;
  const chosen = calendar.calendars.find((entry) => entry.id === calendarId);

  const warnIfNeeded = (change: CalendarChange) => {
    if (!needsMainCalendarWarning(calendar, change)) return;
    setWarned(warnedCalendar(calendar, change));
    warning.open();
  };

  return (
    <SectionCard
      title="Calendar Settings"
      id={sectionIds.calendarSettings}
      status={<SaveStatus status={status} />}
    >
      {!ready && (
        <Text size="sm" fw={500}>
          Connect Google Calendar or Microsoft 365 in the Integrations above to choose these settings.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Calendar"
          description={calendarDescription(calendar.calendars)}
          placeholder={ready ? 'Choose a calendar' : 'No calendar connected'}
          data={calendarOptions(calendar.calendars)}
          value={calendarId}
          onChange={(value) => {
            if (!value || value === calendar.calendarId) return;
            const name = calendar.calendars.find((entry) => entry.id === value)?.name ?? null;
            confirmation.ask(
              {
                title: `Sync with ${name ?? 'this calendar'}?`,
                query: { change: 'calendar', calendarId: value },
                calendarName: name,
              },
              () => {
                warnIfNeeded({ kind: 'calendar', calendarId: value });
                setCalendar.mutate(value);
              },
            );
          }}
          allowDeselect={false}
          nothingFoundMessage="No calendars found"
          disabled={!ready || saving}
          loading={setCalendar.isPending}
          leftSection={chosen ? <SwatchMark color={swatchColor(chosen.color)} /> : undefined}
          renderOption={({ option }) => (
            <ColorSwatchOption
              label={option.label}
              color={swatchColor(calendar.calendars.find((entry) => entry.id === option.value)?.color)}
            />
          )}
        />
        <EventMarkSelect calendar={calendar} disabled={!ready} onChosen={warnIfNeeded} status={status} />
      </SimpleGrid>
      <Stack gap="sm" mt="xs">
        <SettingSwitch
          label="Private events"
          description="People who can see your calendar see only that you are busy, not the task."
          checked={calendar.private}
          disabled={!ready}
          save={calendarCalls.setPrivate}
          status={status}
        />
        <SettingSwitch
          label="Todoist link in description"
          description="Each event’s description links to its task in Todoist."
          checked={calendar.todoistLinkDescription}
          disabled={!ready}
          save={calendarCalls.setTodoistLink}
          status={status}
        />
      </Stack>
      {calendar.accounts.length > 0 && <CalendarAccountsList accounts={calendar.accounts} />}
      <MainCalendarWarningModal
        provider={calendar.provider}
        calendar={warned}
        opened={warningOpened}
        onClose={warning.close}
      />
      <ChangePreviewModal confirmation={confirmation} />
    </SectionCard>
  );
}
