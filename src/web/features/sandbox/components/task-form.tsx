import { NumberInput, TagsInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { SandboxTask } from '#shared/api/sandbox.schema.ts';
import { fromLocalInput, toLocalInput } from '../local-date-time.ts';
import { ItemForm } from './item-form.tsx';
import { LocalDateTimeInput } from './local-date-time-input.tsx';

export type TaskFormValues = { content: string; due?: string; labels: string[]; durationMinutes?: number };

type Props = {
  task?: SandboxTask;
  knownLabels: string[];
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: TaskFormValues) => void;
};

/** Adds or edits an emulated Todoist task: name, due time, labels and duration. */
export function TaskForm({ task, knownLabels, submitLabel, busy, onSubmit }: Props) {
  const [content, setContent] = useState(task?.content ?? '');
  const [due, setDue] = useState(toLocalInput(task?.due?.datetime));
  const [labels, setLabels] = useState<string[]>(task?.labels ?? []);
  const [duration, setDuration] = useState<number | string>(task?.durationMinutes ?? '');
  const empty = content.trim() === '';

  return (
    <ItemForm
      submitLabel={submitLabel}
      busy={busy}
      invalid={empty}
      onSubmit={() =>
        onSubmit({
          content: content.trim(),
          due: fromLocalInput(due),
          labels,
          durationMinutes: typeof duration === 'number' && duration > 0 ? duration : undefined,
        })
      }
    >
      <TextInput label="Task" value={content} onChange={(e) => setContent(e.currentTarget.value)} required />
      <LocalDateTimeInput
        label="Due"
        value={due}
        onChange={setDue}
        description="Timeboxed tasks need a due time."
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
