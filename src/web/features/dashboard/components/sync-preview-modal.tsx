import { Alert, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import type { CalendarSettings } from '#shared/api/current-user.schema.ts';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { PreviewFailedAlert } from '../../../components/preview-failed-alert.tsx';
import { PreviewLine } from '../../../components/preview-line.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { namedItemsText } from '../../../lib/change-preview.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import {
  eventsToTasksText,
  mainCalendarDefaultWarning,
  tasksToEventsText,
  useSyncPreview,
} from '../sync-preview.ts';

type Props = {
  opened: boolean;
  provider: CalendarSettings['provider'];
  /** Switching on is under way (the settings call). */
  switching: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * Before sync goes on (docs/product-rules.md §10): what it would do to the chosen calendar and to Todoist.
 */
export function SyncPreviewModal({ opened, provider, switching, onConfirm, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={() => !switching && onClose()} title="Switch sync on?" centered>
      {opened && (
        <PreviewBody provider={provider} switching={switching} onConfirm={onConfirm} onClose={onClose} />
      )}
    </Modal>
  );
}

function PreviewBody({ provider, switching, onConfirm, onClose }: Omit<Props, 'opened'>) {
  const preview = useSyncPreview(true);
  const data = preview.data;
  const warning = data?.mainCalendarWithDefault ? mainCalendarDefaultWarning(provider) : null;
  const { timeZone } = useDisplayZone();

  return (
    <Stack>
      {preview.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden />
          <Text>Counting what sync would do…</Text>
        </Group>
      )}
      {preview.isError && (
        <PreviewFailedAlert onRetry={() => preview.refetch()} retrying={preview.isFetching}>
          {previewFailure(preview.error)}
        </PreviewFailedAlert>
      )}
      {data && (
        <>
          <Text>
            Calendar: <strong>{data.calendar.name}</strong>
          </Text>
          <List spacing={4}>
            <PreviewLine
              text={tasksToEventsText(data.tasksToEvents, data.calendar.name)}
              names={namedItemsText(data.named.tasksToEvents, data.tasksToEvents, timeZone)}
            />
            <PreviewLine
              text={eventsToTasksText(data.eventsToTasks)}
              names={namedItemsText(data.named.eventsToTasks, data.eventsToTasks, timeZone)}
            />
          </List>
          {warning && (
            <Alert
              color="red.9"
              variant="filled"
              role="alert"
              title={warning.title}
              icon={<IconAlertTriangleFilled aria-hidden />}
            >
              {warning.message}
            </Alert>
          )}
        </>
      )}
      <DialogActions onCancel={onClose} busy={switching} focusCancel>
        <Button
          onClick={onConfirm}
          loading={switching}
          disabled={!data}
          color={warning ? 'red.9' : undefined}
        >
          Switch sync on
        </Button>
      </DialogActions>
    </Stack>
  );
}

/** A refusal the server explains (a calendar no longer there) is shown as it is; anything else is a retry. */
function previewFailure(error: Error): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 404) {
    return error.message;
  }
  return 'The counts could not be read just now. Sync stays off until you have seen them: please try again.';
}
