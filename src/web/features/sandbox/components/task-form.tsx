import { Checkbox, NumberInput, TagsInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { SandboxProject, SandboxTask } from '#shared/api/sandbox.schema.ts';
import { useDisplayZone } from '../../../lib/time-zone.ts';
import {
  dayOfLocalInput,
  fromDateInput,
  fromLocalInput,
  toDateInput,
  toLocalInput,
} from '../local-date-time.ts';
import { ItemForm } from './item-form.tsx';
import { LocalDateInput, LocalDateTimeInput } from './local-date-time-input.tsx';
import { ProjectSelect } from './project-select.tsx';

export type TaskFormValues = {
  content: string;
  /** A due time (an ISO instant); or */
  due?: string;
  /** a due date without a time ('YYYY-MM-DD'). */
  dueDate?: string;
  labels: string[];
  durationMinutes?: number;
  projectId?: string;
};

type Props = {
  task?: SandboxTask;
  knownLabels: string[];
  /** The active projects, the Inbox first; a new task goes to the Inbox unless another is chosen. */
  projects: SandboxProject[];
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: TaskFormValues) => void;
};

/**
 * Adds or edits an emulated Todoist task: name, project, due time (or a date without a time), labels
 * and duration. Another project moves the task there.
 */
export function TaskForm({ task, knownLabels, projects, submitLabel, busy, onSubmit }: Props) {
  const [content, setContent] = useState(task?.content ?? '');
  const { timeZone } = useDisplayZone();
  const [due, setDue] = useState(toLocalInput(task?.due?.datetime, timeZone));
  // A date-only due has a date input of its own; switching keeps the day of the time already chosen.
  const [dateOnly, setDateOnly] = useState(Boolean(task?.due && !task.due.datetime));
  const [dueDay, setDueDay] = useState(toDateInput(task?.due));
  const [labels, setLabels] = useState<string[]>(task?.labels ?? []);
  const [duration, setDuration] = useState<number | string>(task?.durationMinutes ?? '');
  // Until one is chosen, a new task shows the Inbox and is sent without a project, which Todoist reads
  // as the Inbox: the projects may still be on their way when the form opens.
  const [projectId, setProjectId] = useState<string | null>(task?.projectId ?? null);
  const inboxId = projects.find((project) => project.inbox)?.id ?? null;
  const empty = content.trim() === '';

  return (
    <ItemForm
      submitLabel={submitLabel}
      busy={busy}
      invalid={empty}
      onSubmit={() =>
        onSubmit({
          content: content.trim(),
          ...(dateOnly ? { dueDate: fromDateInput(dueDay) } : { due: fromLocalInput(due, timeZone) }),
          labels,
          durationMinutes: typeof duration === 'number' && duration > 0 ? duration : undefined,
          projectId: projectId ?? undefined,
        })
      }
    >
      <TextInput label="Task" value={content} onChange={(e) => setContent(e.currentTarget.value)} required />
      <ProjectSelect
        label="Project"
        projects={projects}
        value={projectId ?? inboxId}
        onChange={setProjectId}
      />
      {dateOnly ? (
        <LocalDateInput label="Due" value={dueDay} onChange={setDueDay} description={DUE_HINT} />
      ) : (
        <LocalDateTimeInput label="Due" value={due} onChange={setDue} description={DUE_HINT} />
      )}
      <Checkbox
        label="No time (date only)"
        checked={dateOnly}
        onChange={(event) => {
          const checked = event.currentTarget.checked;
          setDateOnly(checked);
          if (checked) setDueDay(dayOfLocalInput(due) || dueDay);
        }}
      />
      <TagsInput
        label="Labels"
        value={labels}
        onChange={setLabels}
        data={knownLabels}
        placeholder="e.g. 30Minutes"
        description="Press Enter after each label."
      />
      <NumberInput
        label="Duration (minutes)"
        value={duration}
        onChange={setDuration}
        min={1}
        max={1440}
        allowDecimal={false}
      />
    </ItemForm>
  );
}

const DUE_HINT = 'Timeboxed tasks need a due time, or a date when dated tasks are all-day events.';
