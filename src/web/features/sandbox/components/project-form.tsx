import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { type SandboxProject, sandboxProjectNameSchema } from '#shared/api/sandbox.schema.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { DialogForm } from './dialog-form.tsx';
import { ProjectSelect } from './project-select.tsx';

export type ProjectFormValues = { name: string; parentId?: string };

type Props = {
  /** The project renamed; without it, the form adds one. */
  project?: SandboxProject;
  /** Adding: the projects the new one may go under (not the Inbox, which has no sub-projects). */
  parents: SandboxProject[];
  busy: boolean;
  /** The last refusal, shown next to the field it is about. */
  error: Error | null;
  onSubmit: (values: ProjectFormValues) => void;
  onCancel: () => void;
};

/** A new Todoist project (name, optional parent), or a project's new name, checked as the server does. */
export function ProjectForm({ project, parents, busy, error, onSubmit, onCancel }: Props) {
  const [name, setName] = useState(project?.name ?? '');
  const [parentId, setParentId] = useState<string | null>(null);
  // What was edited since the last submit: the server's answer about a field shows until then.
  const [edited, setEdited] = useState({ name: false, parentId: false });
  const checked = sandboxProjectNameSchema.safeParse(name);
  const issues = error instanceof ApiError ? error.issues : [];
  const issueOf = (field: string) => issues.find((issue) => issue.field === field)?.message;
  const nameError = edited.name ? checked.error?.issues[0]?.message : issueOf('name');
  const parentError = edited.parentId ? undefined : issueOf('parentId');
  const formError = error && !issueOf('name') && !issueOf('parentId') ? errorMessage(error) : null;
  const unchanged = project !== undefined && checked.success && checked.data === project.name;

  return (
    <DialogForm
      ready={checked.success && !unchanged}
      busy={busy}
      refusal={formError ? { title: project ? 'Not renamed' : 'Not added', message: formError } : null}
      submitLabel={project ? 'Save' : 'Add project'}
      onSubmit={() => {
        if (!checked.success) return;
        setEdited({ name: false, parentId: false });
        onSubmit({ name: checked.data, ...(parentId && { parentId }) });
      }}
      onCancel={onCancel}
    >
      <TextInput
        label="Project name"
        value={name}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setEdited((was) => ({ ...was, name: true }));
        }}
        error={nameError}
        disabled={busy}
        data-autofocus
      />
      {!project && (
        <ProjectSelect
          label="Parent project"
          description="Optional: the new project becomes its sub-project."
          placeholder="None (a top-level project)"
          projects={parents}
          value={parentId}
          onChange={(value) => {
            setParentId(value);
            setEdited((was) => ({ ...was, parentId: true }));
          }}
          error={parentError}
          disabled={busy}
        />
      )}
    </DialogForm>
  );
}
