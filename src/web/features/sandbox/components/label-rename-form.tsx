import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { type SandboxLabel, sandboxLabelNameSchema } from '#shared/api/sandbox.schema.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { DialogForm } from './dialog-form.tsx';

type Props = {
  label: SandboxLabel;
  busy: boolean;
  /** The last refusal, shown next to the name when it is about the name. */
  error: Error | null;
  onSubmit: (name: string) => void;
  onCancel: () => void;
};

/** A new name for a Todoist label, checked by the same rule as the server's. */
export function LabelRenameForm({ label, busy, error, onSubmit, onCancel }: Props) {
  const [name, setName] = useState(label.name);
  const [changed, setChanged] = useState(false);
  const checked = sandboxLabelNameSchema.safeParse(name);
  const nameIssue =
    error instanceof ApiError ? error.issues.find((issue) => issue.field === 'name') : undefined;
  const fieldError = changed ? checked.error?.issues[0]?.message : nameIssue?.message;
  const formError = error && !nameIssue ? errorMessage(error) : null;
  const unchanged = checked.success && checked.data === label.name;

  return (
    <DialogForm
      ready={checked.success && !unchanged}
      busy={busy}
      refusal={formError ? { title: 'Not renamed', message: formError } : null}
      submitLabel="Save"
      onSubmit={() => {
        if (!checked.success) return;
        // The server's answer about this name shows until the name is edited again.
        setChanged(false);
        onSubmit(checked.data);
      }}
      onCancel={onCancel}
    >
      <TextInput
        label="Label name"
        description="Todoist renames it on every task that carries it."
        value={name}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setChanged(true);
        }}
        error={fieldError}
        disabled={busy}
        data-autofocus
      />
    </DialogForm>
  );
}
