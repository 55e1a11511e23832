import { Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { FormErrorAlert } from '../../../components/form-error-alert.tsx';

type Props = {
  /** The fields are valid and change something: only then does the form submit. */
  ready: boolean;
  busy: boolean;
  /** Why the last try was refused, when it was not about one field. */
  refusal: { title: string; message: string } | null;
  submitLabel: string;
  onSubmit: () => void;
  onCancel: () => void;
  /** The fields. */
  children: ReactNode;
};

/**
 * The frame of the dialogs that add or rename an emulated project or label: why the last try was
 * refused, the fields, then Cancel and the submit button.
 */
export function DialogForm({ ready, busy, refusal, submitLabel, onSubmit, onCancel, children }: Props) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onSubmit();
      }}
    >
      <Stack>
        {refusal && <FormErrorAlert title={refusal.title}>{refusal.message}</FormErrorAlert>}
        {children}
        <DialogActions onCancel={onCancel} busy={busy}>
          <Button type="submit" loading={busy} disabled={!ready}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Stack>
    </form>
  );
}
