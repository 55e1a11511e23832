import { Button, Checkbox, Group, Paper, Radio, ScrollArea, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { TodoSettings } from '#shared/api/current-user.schema.ts';
import type { ProjectScopeMode } from '#shared/settings/project-scope.ts';
import { ChangePreviewModal } from '../../../components/change-preview.tsx';
import { SaveStatus } from '../../../components/save-status.tsx';
import { useConfirmedChange } from '../../../lib/change-preview.ts';
import type { SaveStatus as SaveStatusValue } from '../../../lib/save-status.ts';
import { LABEL_COLOR_HEX, toLabelColor } from '../../../lib/todoist-colors.ts';
import { useUserChange } from '../../../lib/user-change.ts';
import {
  CHOOSE_ONE,
  draftOf,
  draftStatus,
  projectRows,
  scopeChangeTitle,
  toggleProject,
} from '../project-draft.ts';
import { whatSyncsCalls } from '../what-syncs-api.ts';

/** Each level of sub-projects is indented this much, as in Todoist's sidebar. */
const INDENT_PX = 22;

type Props = {
  todo: Pick<TodoSettings, 'projects' | 'projectScope'>;
  disabled: boolean;
  /** The confirmation beside "Save projects"; the parent's, as this form remounts once saved. */
  status: SaveStatusValue;
};

/**
 * "Projects to sync": all projects, or the ticked ones with their sub-projects. The choice is a draft
 * until "Save projects" (one confirmation, one full read by the next run, rather than one per tick); while
 * sync is on, saving first shows what the change does to what is already synced, and only a confirmed
 * save says "Saved".
 * The parent gives it a `key` of the saved choice, so a saved answer starts a fresh draft.
 */
export function ProjectScopeForm({ todo, disabled, status: saveStatus }: Props) {
  const saved = todo.projectScope;
  const [draft, setDraft] = useState(() => draftOf(saved));
  const confirmation = useConfirmedChange();
  const save = useUserChange(whatSyncsCalls.setProjectScope, {
    errorTitle: 'Projects not saved',
    status: saveStatus,
  });
  const listId = useId();
  const status = draftStatus(draft, saved, todo.projects);
  const rows = projectRows(todo.projects, draft.chosen);
  const locked = disabled || save.isPending;

  const submit = () => {
    if (!status.canSave) return;
    const scope = status.scope;
    confirmation.ask(
      {
        title: scopeChangeTitle(scope, todo.projects),
        query: { change: 'projects', mode: scope.mode, projectIds: scope.projectIds.join(',') },
        calendarName: null,
      },
      () => save.mutate(scope),
    );
  };

  return (
    <Stack gap="sm">
      <Radio.Group<ProjectScopeMode>
        label="Projects to sync"
        description="Only tasks in these projects get events."
        value={draft.mode}
        onChange={(mode) => setDraft({ ...draft, mode })}
        disabled={locked}
      >
        <Stack gap="xs" mt="xs">
          <Radio
            value="all"
            label="All projects"
            description="Every task with a timebox label, wherever it is."
          />
          <Radio
            value="chosen"
            label="Chosen projects"
            description="Only the projects you tick, each with its sub-projects."
            aria-controls={draft.mode === 'chosen' ? listId : undefined}
          />
        </Stack>
      </Radio.Group>

      {draft.mode === 'chosen' && (
        <Paper withBorder radius="md" p={0}>
          <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars="present">
            <Stack id={listId} role="group" aria-label="Chosen projects" gap={10} p="sm">
              {rows.map((row) => (
                <Checkbox
                  key={row.id}
                  label={
                    <Group gap={8} wrap="nowrap" component="span">
                      <ProjectColorDot color={row.color} />
                      <span>{row.name}</span>
                    </Group>
                  }
                  description={row.includedWith ? `Included with “${row.includedWith}”` : undefined}
                  checked={row.checked}
                  disabled={locked || row.includedWith !== null}
                  onChange={() => setDraft(toggleProject(draft, row.id))}
                  style={{ paddingInlineStart: row.depth * INDENT_PX }}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Paper>
      )}

      {draft.mode === 'chosen' && status.empty && (
        <Text size="sm" c="red.8" role="status">
          {CHOOSE_ONE}
        </Text>
      )}

      <Group gap="xs">
        <Button onClick={submit} disabled={!status.canSave || disabled} loading={save.isPending}>
          Save projects
        </Button>
        {status.edited && !save.isPending && (
          <Button variant="subtle" color="gray" onClick={() => setDraft(draftOf(saved))} disabled={disabled}>
            Undo
          </Button>
        )}
        <SaveStatus status={saveStatus} />
      </Group>
      <ChangePreviewModal confirmation={confirmation} />
    </Stack>
  );
}

/** The project's Todoist colour, as Todoist shows it beside the name; decoration only. */
function ProjectColorDot({ color }: { color: string }) {
  const key = toLabelColor(color);
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        flexShrink: 0,
        width: 10,
        height: 10,
        borderRadius: '50%',
        background: key ? LABEL_COLOR_HEX[key] : 'var(--mantine-color-gray-5)',
      }}
    />
  );
}
