import { Loader, Stack, Switch, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { isEntitled } from '#shared/billing/subscription-status.ts';
import { syncToggleAllowed } from '#shared/settings/rules.ts';
import { decisionWaits } from '../../../lib/held-removals.ts';
import { sectionIds } from '../../../lib/paths.ts';
import { useSyncActivity } from '../../../lib/sync-activity.ts';
import { syncReadiness } from '../../../lib/sync-readiness.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import { dashboardCalls } from '../dashboard-api.ts';
import { joinSteps, missingForSync } from '../sync-readiness.ts';
import { SyncPreviewModal } from './sync-preview-modal.tsx';

/**
 * The sync-active toggle (docs/product-rules.md §4, §10): on only when everything is in place, and only
 * after the preview of what it would do has been shown; off at any time, at once.
 */
export function SyncSwitch({ user }: { user: CurrentUser }) {
  const change = useUserChange(dashboardCalls.setSyncActive);
  const [previewOpened, preview] = useDisclosure(false);
  const readiness = syncReadiness(user);
  const missing = missingForSync(readiness);
  const canTurnOn = syncToggleAllowed(readiness, true);
  const checked = change.isPending ? change.variables : user.syncActive;
  const paused = user.syncActive && !isEntitled(user.payment, new Date());
  const activity = useSyncActivity({ refetchMs: false, enabled: user.syncActive });
  const waits = decisionWaits(activity.data?.heldRemovals);

  let description: string;
  if (!user.syncActive && !canTurnOn) description = `To switch sync on, ${joinSteps(missing)}.`;
  else if (user.syncActive && missing.length > 0)
    description = `Sync cannot run until you ${joinSteps(missing)}.`;
  else if (user.syncActive && waits)
    description =
      'Your tasks and calendar events are kept in sync, except the removals that wait for your decision.';
  else if (user.syncActive) description = 'Your tasks and calendar events are kept in sync.';
  else description = 'Everything is in place. Switch sync on to start.';

  return (
    <Stack gap={6}>
      <Switch
        id={sectionIds.syncSwitch}
        size="md"
        label="Sync active"
        description={description}
        checked={checked}
        disabled={change.isPending || (!user.syncActive && !canTurnOn)}
        onChange={(event) => {
          if (event.currentTarget.checked) preview.open();
          else change.mutate(false);
        }}
        thumbIcon={change.isPending ? <Loader size={10} color="gray" aria-hidden /> : undefined}
        aria-busy={change.isPending}
      />
      <SyncPreviewModal
        opened={previewOpened}
        provider={user.calendarSettings.provider}
        switching={change.isPending}
        onConfirm={() => change.mutate(true, { onSuccess: preview.close })}
        onClose={preview.close}
      />
      {paused && (
        <Text size="sm" fw={600} role="status">
          Sync is paused because your{' '}
          {user.payment.subscriptionStatus === 'trial' ? 'free trial' : 'subscription'} has ended. It resumes
          as soon as you upgrade.
        </Text>
      )}
    </Stack>
  );
}
