import { IconInfoCircleFilled } from '@tabler/icons-react';
import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { useDismissLeftBehind } from '../../../lib/sync-activity.ts';
import { leftBehindText } from '../left-behind.ts';
import { DismissibleNote } from './dismissible-note.tsx';

type LeftBehind = NonNullable<SyncActivity['leftBehind']>;

/** Where events of ours stayed when the user switched to another calendar account or provider. */
export function LeftBehindNote({ leftBehind }: { leftBehind: LeftBehind }) {
  const dismiss = useDismissLeftBehind();
  return (
    <DismissibleNote
      text={leftBehindText(leftBehind)}
      color="blue"
      icon={<IconInfoCircleFilled aria-hidden />}
      dismiss={{ mutate: () => dismiss.mutate(), isPending: dismiss.isPending }}
    />
  );
}
