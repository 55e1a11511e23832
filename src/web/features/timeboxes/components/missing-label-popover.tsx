import { Button, Popover, Stack, Text } from '@mantine/core';
import { IconAlertTriangleFilled, IconPlus } from '@tabler/icons-react';
import { NEW_LABEL_COLOR_CODE } from '#shared/settings/constants.ts';
import type { SaveReporter } from '../../../lib/save-status.ts';
import { useHoverFocusPopover } from '../../../lib/use-hover-focus-popover.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import { timeboxCalls } from '../timebox-api.ts';

/**
 * The attention marker of a row whose label Todoist lacks, with the offer to create it (docs/product-rules.md
 * §4). The warning shows on hover and on keyboard focus; a click, Enter or Space keeps it open and moves the
 * focus to the offer.
 */
type Props = { label: string; disabled?: boolean; status: SaveReporter };

export function MissingLabelPopover({ label, disabled, status }: Props) {
  const create = useUserChange((name: string) => timeboxCalls.createLabel(name, NEW_LABEL_COLOR_CODE), {
    errorTitle: 'The label was not created',
    status,
  });
  const warning = useHoverFocusPopover();

  return (
    <Popover
      opened={warning.opened}
      onChange={warning.onChange}
      width={260}
      position="bottom-start"
      withArrow
      shadow="md"
      trapFocus={warning.pinned}
    >
      <Popover.Target>
        <Button
          variant="subtle"
          color="gray"
          c="var(--mantine-color-text)"
          size="compact-xs"
          px={4}
          leftSection={
            <IconAlertTriangleFilled size={14} color="var(--mantine-color-yellow-8)" aria-hidden />
          }
          aria-label={`Missing in Todoist: label ${label}`}
          {...warning.targetProps}
        >
          Missing in Todoist
        </Button>
      </Popover.Target>
      <Popover.Dropdown {...warning.dropdownProps}>
        <Stack gap="xs">
          <Text size="sm">This label is not available on your Todoist account.</Text>
          <Button
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            loading={create.isPending}
            disabled={disabled}
            onClick={() => create.mutate(label)}
          >
            Create label on Todoist
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
