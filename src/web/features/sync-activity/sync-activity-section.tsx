import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { HeldRemovalsAlert } from '../../components/held-removals-alert.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { SyncActivityList } from '../../components/sync-activity-list.tsx';
import { sectionIds } from '../../lib/paths.ts';
import { useActivityNames, useSyncActivity } from '../../lib/sync-activity.ts';
import { formatFullTime, lastSyncedText, latestEntries } from '../../lib/sync-activity-format.ts';
import { useDisplayZone } from '../../lib/time-zone.ts';
import { AutoplanUnplacedNote } from './components/autoplan-unplaced-note.tsx';
import { LeftBehindNote } from './components/left-behind-note.tsx';
import { OtherSyncNote } from './components/other-sync-note.tsx';
import { ProviderBusyNote } from './components/provider-busy-note.tsx';
import { RefusedWritesNote } from './components/refused-writes-note.tsx';
import { SyncProblemList } from './components/sync-problem-list.tsx';

/** The dashboard re-reads the activity this often while sync is on and the tab is visible. */
const REFRESH_MS = 5000;
/** The dashboard shows the latest actions; older ones add nothing a person acts on. */
const SHOWN_ENTRIES = 20;

/** The held removals have their own question above the other problems. */
const otherProblems = (activity: SyncActivity) =>
  activity.heldRemovals
    ? activity.problems.filter((problem) => problem.code !== 'removals-held')
    : activity.problems;

/** What only the user can fix, then what the sync did lately, its items named as Todoist and the calendar read now. */
export function SyncActivitySection({ user }: { user: CurrentUser }) {
  const activity = useSyncActivity({ refetchMs: user.syncActive ? REFRESH_MS : false });
  const names = useActivityNames(activity.data);
  const zone = useDisplayZone();

  return (
    <SectionCard title="Sync activity" id={sectionIds.syncActivity}>
      {activity.isPending && <Loader size="sm" role="status" aria-label="Loading the sync activity" />}
      {activity.isError && (
        <Alert color="gray" variant="light" title="The sync activity could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              It is not available right now. Your settings and the sync itself are not affected.
            </Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={() => activity.refetch()}
              loading={activity.isFetching}
            >
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
      {activity.data && (
        <>
          {activity.data.heldRemovals && (
            <HeldRemovalsAlert held={activity.data.heldRemovals} names={names.data} />
          )}
          {activity.data.providerBusy && <ProviderBusyNote busy={activity.data.providerBusy} />}
          {activity.data.refusedWrites && (
            <RefusedWritesNote refused={activity.data.refusedWrites} names={names.data} />
          )}
          {activity.data.leftBehind && <LeftBehindNote leftBehind={activity.data.leftBehind} />}
          {activity.data.otherSync && <OtherSyncNote otherSync={activity.data.otherSync} />}
          {activity.data.autoplanUnplaced.length > 0 && (
            <AutoplanUnplacedNote
              days={activity.data.autoplanUnplaced}
              timeZone={user.todoSettings.timezone?.timezone ?? null}
            />
          )}
          {otherProblems(activity.data).length > 0 && (
            <Stack gap="xs">
              <Title order={3} size="h5">
                Problems
              </Title>
              <SyncProblemList
                problems={otherProblems(activity.data)}
                calendarProvider={user.calendarSettings.provider}
                accounts={user.calendarSettings.accounts}
              />
            </Stack>
          )}
          <Group gap="xs" justify="space-between">
            <Title order={3} size="h5">
              Recent actions
            </Title>
            <Text
              size="sm"
              c="dimmed"
              title={
                activity.data.lastRunAt ? formatFullTime(activity.data.lastRunAt, zone.timeZone) : undefined
              }
            >
              {lastSyncedText(activity.data.lastRunAt, zone.timeZone)}
            </Text>
          </Group>
          {activity.data.entries.length === 0 ? (
            <Text c="dimmed">No sync activity yet.</Text>
          ) : (
            <SyncActivityList
              entries={latestEntries(activity.data.entries, SHOWN_ENTRIES)}
              names={names.data}
            />
          )}
        </>
      )}
    </SectionCard>
  );
}
