import { Alert, Button, Group, List, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangleFilled } from '@tabler/icons-react';
import { localDateIn } from '#shared/settings/autoplan-text.ts';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { PreviewFailedAlert } from '../../../components/preview-failed-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { type DisplayZone, zoneLabel } from '../../../lib/time-zone.ts';
import { type PreviewDay, previewDays } from '../autoplan-preview.ts';
import { useAutoplanPreview } from '../plan-my-day-api.ts';

type AutoplanPreviewQuery = ReturnType<typeof useAutoplanPreview>;

type Props = {
  opened: boolean;
  /** The working hours shown are being saved first; the preview is read once they are. */
  saving: boolean;
  /** Switching on is under way. */
  switching: boolean;
  zone: DisplayZone;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * Before "Plan my day" goes on: where the saved working hours would put the next 7 days' tasks with a
 * date but no time, and what would not fit. It stays off until the user has seen it.
 */
export function AutoplanPreviewModal(props: Props) {
  const { opened, switching, onClose } = props;
  return (
    <Modal
      opened={opened}
      onClose={() => !switching && onClose()}
      title="Plan my day: the next 7 days"
      size="lg"
      centered
    >
      {opened && <PreviewContent {...props} />}
    </Modal>
  );
}

function PreviewContent({ saving, switching, zone, onConfirm, onClose }: Props) {
  // Read once the hours shown are saved; mounted with the dialog, so each opening reads afresh.
  const preview = useAutoplanPreview(!saving);
  return (
    <Stack>
      {saving ? (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Saving your working hours…</Text>
        </Group>
      ) : (
        <PreviewBody preview={preview} zone={zone} />
      )}
      <DialogActions onCancel={onClose} busy={switching} focusCancel>
        <Button onClick={onConfirm} loading={switching} disabled={saving || !preview.data}>
          Switch on
        </Button>
      </DialogActions>
    </Stack>
  );
}

function PreviewBody({ preview, zone }: { preview: AutoplanPreviewQuery; zone: DisplayZone }) {
  if (preview.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm">Finding the first free time for each task…</Text>
      </Group>
    );
  }
  if (preview.isError) {
    return (
      <PreviewFailedAlert onRetry={() => preview.refetch()} retrying={preview.isFetching}>
        {errorMessage(preview.error)} Plan my day stays off until you have seen it.
      </PreviewFailedAlert>
    );
  }
  const days = previewDays(preview.data, zone.timeZone, localDateIn(zone.timeZone));
  if (days.length === 0) {
    return (
      <Text size="sm" role="status">
        No task with a date but no time is waiting.
      </Text>
    );
  }
  return (
    <Stack gap="md" role="status" aria-label="Where your tasks would go">
      <Text size="sm" c="dimmed">
        {zoneLabel(zone)}
      </Text>
      {days.map((day) => (
        <PreviewDayBlock key={day.date} day={day} />
      ))}
    </Stack>
  );
}

function PreviewDayBlock({ day }: { day: PreviewDay }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h6">
        {day.heading}
      </Title>
      {day.placements.length > 0 && (
        <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {day.placements.map((placement) => (
            <Group key={placement.taskId} component="li" gap="sm" wrap="nowrap" align="baseline">
              <Text size="sm" fw={600} style={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}>
                {placement.time}
              </Text>
              <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {placement.title}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      {day.unplaced && (
        <Alert
          variant="light"
          color="orange"
          p="xs"
          icon={<IconAlertTriangleFilled size={18} aria-hidden />}
          title={day.unplaced.text}
        >
          <List size="sm" spacing={2}>
            {day.unplaced.tasks.map((task) => (
              <List.Item key={task.taskId} style={{ overflowWrap: 'anywhere' }}>
                {task.title}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
