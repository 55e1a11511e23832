import { ActionIcon, ColorSwatch, Group, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { TodoistLabel } from '#shared/api/current-user.schema.ts';
import { formatHours, type TimeboxSetting } from '#shared/settings/rules.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { LABEL_COLOR_HEX, toLabelColor } from '../../../lib/todoist-colors.ts';
import { MissingLabelPopover } from './missing-label-popover.tsx';

type Props = {
  setting: TimeboxSetting;
  /** The Todoist label of the setting; undefined when Todoist lacks it. */
  todoistLabel: TodoistLabel | undefined;
  /** Whether Todoist's labels are known at all (Todoist connected). */
  labelsKnown: boolean;
  disabled: boolean;
  /** Editing needs Todoist (the label may have to be created there); removing does not. */
  editable: boolean;
  onEdit: () => void;
  onRemove: () => void;
  /** The table's confirmation, for the label created from the row. */
  status: SaveReporter;
};

export function TimeboxRow({
  setting,
  todoistLabel,
  labelsKnown,
  disabled,
  editable,
  onEdit,
  onRemove,
  status,
}: Props) {
  const missing = labelsKnown && !todoistLabel;
  const color = toLabelColor(todoistLabel?.color);
  return (
    <Table.Tr
      bg={missing ? 'var(--mantine-color-yellow-light)' : undefined}
      data-missing-label={missing || undefined}
    >
      <Table.Td>
        <Stack gap={2} align="flex-start">
          <Group gap={8} wrap="nowrap">
            {color && <ColorSwatch color={LABEL_COLOR_HEX[color]} size={12} aria-hidden />}
            <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
              {setting.label}
            </Text>
          </Group>
          {missing && <MissingLabelPopover label={setting.label} disabled={disabled} status={status} />}
        </Stack>
      </Table.Td>
      <Table.Td>{setting.duration}</Table.Td>
      <Table.Td>{formatHours(setting.duration)}</Table.Td>
      <Table.Td>
        {/* The buttons may stack on narrow screens, so the table never hides one sideways. */}
        <Group gap={4} justify="flex-end">
          <ActionIcon
            variant="subtle"
            color="gray"
            c="var(--mantine-color-text)"
            onClick={onEdit}
            disabled={disabled || !editable}
            aria-label={`Edit timebox setting ${setting.label}`}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={onRemove}
            disabled={disabled}
            aria-label={`Remove timebox setting ${setting.label}`}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
