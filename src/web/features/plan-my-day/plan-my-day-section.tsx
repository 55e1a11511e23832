import { Button, Group, Loader, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import type { CalendarSettings, TodoSettings } from '#shared/api/current-user.schema.ts';
import { SaveStatus } from '../../components/save-status.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { failuresOnly, useSaveStatus } from '../../lib/save-status.ts';
import { useDisplayZone } from '../../lib/time-zone.ts';
import { useUserChange } from '../../lib/user-change.ts';
import {
  type AutoplanDraft,
  autoplanOf,
  draftOf,
  draftStatus,
  hoursKey,
  mainCalendarChosen,
} from './autoplan-draft.ts';
import { AutoplanHoursForm } from './components/autoplan-hours-form.tsx';
import { AutoplanPreviewModal } from './components/autoplan-preview-modal.tsx';
import { planMyDayCalls } from './plan-my-day-api.ts';

type Props = { todo: TodoSettings; calendar: CalendarSettings };

/** The switch-on dialog: closed, open while the hours shown are saved, or open on the preview. */
type PreviewStep = 'closed' | 'saving' | 'open';

const SWITCH_DESCRIPTION =
  'Tasks with a timebox label and a date but no time get the first free time of their day, within ' +
  'your working hours. Only times it placed are ever moved.';

/**
 * "Plan my day" (issue 24): working hours in which dated tasks without a time get the first free time of
 * their day. The hours are a draft until "Save" (which keeps the switch as it is), and "Saved" shows
 * beside that button; switching on saves the hours shown, then previews the next 7 days before it goes
 * on; switching off is at once. The switch's "Saved" shows beside the title, once it is on or off.
 */
export function PlanMyDaySection({ todo, calendar }: Props) {
  const saved = calendar.autoplan;
  const ready = todo.connected && calendar.connected && calendar.provider !== null;
  const calendarChosen = calendar.calendarId !== null;
  const zone = useDisplayZone();
  // Plan my day reads the hours in the Todoist account's zone: named once it is known.
  const hoursZone =
    zone.source === 'todoist'
      ? `${zone.timeZone}, your Todoist time zone`
      : 'your Todoist time zone, once Todoist is connected';

  // The draft starts afresh whenever the saved hours change (a save, another tab), not with the switch.
  const key = hoursKey(saved);
  const [form, setForm] = useState(() => ({ key, draft: draftOf(saved) }));
  const draft = form.key === key ? form.draft : draftOf(saved);
  if (form.key !== key) setForm({ key, draft });
  const setDraft = (next: AutoplanDraft) => setForm({ key, draft: next });
  const status = draftStatus(draft, saved);

  const switchStatus = useSaveStatus();
  const hoursStatus = useSaveStatus();
  const save = useUserChange(planMyDayCalls.setAutoplan, {
    errorTitle: 'Working hours not saved',
    status: hoursStatus,
  });
  // The hours saved before the preview: a step of switching on, which says "Saved" once confirmed.
  const prepare = useUserChange(planMyDayCalls.setAutoplan, {
    errorTitle: 'Working hours not saved',
    status: failuresOnly(switchStatus),
  });
  const toggle = useUserChange(planMyDayCalls.setAutoplan, {
    errorTitle: 'Plan my day not switched',
    status: switchStatus,
  });
  const [step, setStep] = useState<PreviewStep>('closed');
  // The hours the preview shows, which switching on saves with the switch.
  const [previewed, setPreviewed] = useState<AutoplanDraft>(draft);

  const active = toggle.isPending ? (toggle.variables?.active ?? saved.active) : saved.active;
  const busy = save.isPending || prepare.isPending || toggle.isPending || step !== 'closed';
  const canSwitchOn = ready && calendarChosen && status.valid;

  const switchOn = () => {
    if (!canSwitchOn) return;
    setPreviewed(draft);
    if (!status.changed) {
      setStep('open');
      return;
    }
    setStep('saving');
    prepare.mutate(autoplanOf(draft, false), {
      // Cancelled while saving: the dialog stays closed.
      onSuccess: () => setStep((now) => (now === 'saving' ? 'open' : now)),
      onError: () => setStep('closed'),
    });
  };

  return (
    <SectionCard title="Plan my day" id="plan-my-day" status={<SaveStatus status={switchStatus} />}>
      {!ready && (
        <Text size="sm" fw={500}>
          Connect Todoist and Google Calendar or Microsoft 365 in the Integrations above to plan your day.
        </Text>
      )}
      {ready && !calendarChosen && (
        <Text size="sm" fw={500}>
          Choose a calendar in Calendar Settings above to switch this on.
        </Text>
      )}
      <Switch
        label="Plan my day"
        description={SWITCH_DESCRIPTION}
        checked={active}
        disabled={!ready || busy || (!saved.active && !canSwitchOn)}
        onChange={(event) => {
          if (event.currentTarget.checked) switchOn();
          else toggle.mutate(autoplanOf(draftOf(saved), false));
        }}
        thumbIcon={toggle.isPending ? <Loader size={10} color="gray" aria-hidden /> : undefined}
        aria-busy={toggle.isPending}
      />
      <AutoplanHoursForm
        draft={draft}
        errors={status.errors}
        disabled={!ready || busy}
        zoneLabel={hoursZone}
        mainCalendarChosen={mainCalendarChosen(calendar)}
        onChange={setDraft}
      />
      <Group gap="xs" mt="xs">
        <Button
          onClick={() => save.mutate(autoplanOf(draft, saved.active))}
          disabled={!ready || !status.canSave || toggle.isPending || step !== 'closed'}
          loading={save.isPending}
        >
          Save
        </Button>
        {status.changed && !save.isPending && !prepare.isPending && (
          <Button variant="subtle" color="gray" onClick={() => setDraft(draftOf(saved))} disabled={busy}>
            Undo
          </Button>
        )}
        <SaveStatus status={hoursStatus} />
      </Group>
      <AutoplanPreviewModal
        opened={step !== 'closed'}
        saving={step === 'saving'}
        switching={toggle.isPending}
        zone={zone}
        onConfirm={() => toggle.mutate(autoplanOf(previewed, true), { onSuccess: () => setStep('closed') })}
        onClose={() => setStep('closed')}
      />
    </SectionCard>
  );
}
