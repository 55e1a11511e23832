import { IconAlertTriangleFilled } from '@tabler/icons-react';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { useDismissOtherSync } from '../../../lib/sync-activity.ts';
import { otherSyncText } from '../other-sync.ts';
import { DismissibleNote } from './dismissible-note.tsx';

type OtherSync = NonNullable<SyncActivity['otherSync']>;

/** Another sync (Todoist's own calendar integration) writes into the chosen calendar; shown until read. */
export function OtherSyncNote({ otherSync }: { otherSync: OtherSync }) {
  const dismiss = useDismissOtherSync();
  return (
    <DismissibleNote
      text={otherSyncText(otherSync)}
      color="yellow"
      icon={<IconAlertTriangleFilled aria-hidden />}
      dismiss={{ mutate: () => dismiss.mutate(), isPending: dismiss.isPending }}
    />
  );
}
