import { Group, Loader, Radio, Select, Stack } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { ON_COMPLETE_OPTIONS, type OnComplete, REMINDER_OPTIONS } from '#shared/settings/constants.ts';
import { SaveStatus } from '../../../components/save-status.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { useSaveStatus } from '../../../lib/save-status.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import { fromReminderValue, toReminderValue } from '../calendar-colors.ts';
import { calendarCalls } from '../calendar-settings-api.ts';
import { SettingSwitch } from './setting-switch.tsx';

/**
 * Advanced Settings (docs/product-rules.md §2): the event reminder and what completing a task does to its
 * event. Each saves on change, and the title says "Saved".
 */
export function AdvancedSettingsSection({ user }: { user: CurrentUser }) {
  const calendar = user.calendarSettings;
  const todo = user.todoSettings;
  const calendarReady = calendar.connected && !!calendar.provider;
  const status = useSaveStatus();
  const setReminder = useUserChange(calendarCalls.setReminder, { status });
  const setOnComplete = useUserChange(calendarCalls.setOnComplete, { status });
  const reminder = setReminder.isPending ? setReminder.variables : calendar.reminder;
  const onComplete = setOnComplete.isPending ? setOnComplete.variables : todo.onComplete;

  return (
    <SectionCard title="Advanced Settings" status={<SaveStatus status={status} />}>
      <Select
        label="Event reminder"
        description={
          calendarReady
            ? 'A reminder before each event Timeboxer creates.'
            : 'Connect a calendar to choose a reminder.'
        }
        data={REMINDER_OPTIONS.map((option) => ({
          value: toReminderValue(option.value),
          label: option.label,
        }))}
        value={toReminderValue(reminder ?? null)}
        onChange={(value) => {
          if (value === null) return;
          const next = fromReminderValue(value);
          if (next !== calendar.reminder) setReminder.mutate(next);
        }}
        allowDeselect={false}
        disabled={!calendarReady || setReminder.isPending}
        loading={setReminder.isPending}
        maw={420}
      />
      <Radio.Group
        label={
          <Group gap={6} component="span">
            When a task is completed
            {setOnComplete.isPending && <Loader size={12} aria-hidden />}
          </Group>
        }
        value={onComplete}
        onChange={(value) => {
          if (value !== todo.onComplete) setOnComplete.mutate(value as OnComplete);
        }}
        aria-busy={setOnComplete.isPending}
      >
        <Stack gap="xs" mt="xs">
          {ON_COMPLETE_OPTIONS.map((option) => (
            <Radio
              key={option.value}
              value={option.value}
              label={option.label}
              disabled={setOnComplete.isPending}
            />
          ))}
        </Stack>
      </Radio.Group>
      <SettingSwitch
        label="Remove the calendar event when the task is completed before the event started"
        checked={todo.onPreComplete}
        save={calendarCalls.setOnPreComplete}
        status={status}
      />
    </SectionCard>
  );
}
