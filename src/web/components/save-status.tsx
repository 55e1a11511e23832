import { Group, Text } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleXFilled } from '@tabler/icons-react';
import {
  SAVE_FAILED_TEXT,
  SAVED_FADE_MS,
  SAVED_TEXT,
  type SaveStatus as SaveStatusValue,
} from '../lib/save-status.ts';

const iconStyle = { flexShrink: 0 } as const;

/**
 * The inline answer to a save (lib/save-status.ts), beside the card title or the Save button it belongs
 * to: "Saved" with a check, fading after a few seconds, or the failure in plain words until the next
 * try. The live region is always in the page, so a reader hears each answer as it appears.
 */
export function SaveStatus({ status }: { status: Pick<SaveStatusValue, 'shown'> }) {
  const { shown } = status;
  return (
    <Text component="span" size="sm" fw={500} role="status" style={{ display: 'inline-flex', minWidth: 0 }}>
      {(shown === 'saved' || shown === 'fading') && (
        <Group
          component="span"
          gap={4}
          wrap="nowrap"
          style={{ opacity: shown === 'fading' ? 0 : 1, transition: `opacity ${SAVED_FADE_MS}ms ease` }}
          // On its way out: neither read nor judged for contrast while it turns transparent.
          inert={shown === 'fading'}
        >
          <IconCircleCheckFilled
            size={16}
            color="var(--mantine-color-green-8)"
            style={iconStyle}
            aria-hidden
          />
          <span>{SAVED_TEXT}</span>
        </Group>
      )}
      {shown === 'error' && (
        <Group component="span" gap={4} wrap="nowrap" align="flex-start">
          <IconCircleXFilled
            size={16}
            color="var(--mantine-color-red-8)"
            style={{ ...iconStyle, marginTop: 2 }}
            aria-hidden
          />
          <span style={{ minWidth: 0 }}>{SAVE_FAILED_TEXT}</span>
        </Group>
      )}
    </Text>
  );
}
