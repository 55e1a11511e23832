import { Alert, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import type { ProposedChangeQuery } from '#shared/api/sync.schema.ts';
import { ApiError } from '../lib/api-client.ts';
import {
  changePreviewLines,
  namedItemsText,
  useChangePreview,
  type useConfirmedChange,
} from '../lib/change-preview.ts';
import { useDisplayZone } from '../lib/time-zone.ts';
import { DialogActions } from './dialog-actions.tsx';
import { PreviewLine } from './preview-line.tsx';

/** What a proposed change would do to what is already synced: loading, the sentences, or why not. */
export function ChangePreviewSummary({
  query,
  calendarName,
}: {
  query: ProposedChangeQuery;
  calendarName: string | null;
}) {
  const preview = useChangePreview(query);
  const { timeZone } = useDisplayZone();
  if (preview.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm">Counting what this changes in your calendar and Todoist…</Text>
      </Group>
    );
  }
  if (preview.isError || !preview.data) {
    // Asked too often, or a provider's limit: the server's words say when to try again.
    const why =
      preview.error instanceof ApiError && preview.error.status === 429 ? `${preview.error.message} ` : '';
    return (
      <Text size="sm" c="dimmed">
        {why}What this changes could not be counted right now; the sync applies it all the same.
      </Text>
    );
  }
  return (
    <Stack gap="xs" role="status" aria-label="What this change does">
      <List size="sm" spacing={4}>
        {changePreviewLines(preview.data, calendarName).map((line) => (
          <PreviewLine
            key={line.text}
            text={line.text}
            names={
              line.named && namedItemsText(preview.data.named[line.named], preview.data[line.named], timeZone)
            }
          />
        ))}
      </List>
      {preview.data.heldByBrake && (
        <Alert variant="light" color="orange" icon={<IconHandStop aria-hidden />} p="xs">
          <Text size="sm">
            That is many removals at once: Timeboxer will hold them back and ask you once more on the
            dashboard.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

/** The dialog before a setting that changes what is synced is saved while sync is on. */
export function ChangePreviewModal({
  confirmation,
}: {
  confirmation: ReturnType<typeof useConfirmedChange>;
}) {
  const pending = confirmation.pending;
  return (
    <Modal opened={pending !== null} onClose={confirmation.cancel} title={pending?.title ?? ''} centered>
      {pending && (
        <Stack>
          <Text size="sm">Sync is on. Saving this changes what is already synced:</Text>
          <ChangePreviewSummary query={pending.query} calendarName={pending.calendarName} />
          <DialogActions onCancel={confirmation.cancel} focusCancel>
            <Button onClick={confirmation.confirm}>Save</Button>
          </DialogActions>
        </Stack>
      )}
    </Modal>
  );
}
