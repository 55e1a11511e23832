import { Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

type Props = {
  submitLabel: string;
  busy: boolean;
  /** Until the fields are valid, the form does not submit. */
  invalid: boolean;
  onSubmit: () => void;
  /** The fields. */
  children: ReactNode;
};

/** The frame of the forms that add or edit an emulated task or event: the fields, then the submit button. */
export function ItemForm({ submitLabel, busy, invalid, onSubmit, children }: Props) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) onSubmit();
      }}
    >
      <Stack gap="xs">
        {children}
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={invalid}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
