import { Select, Text } from '@mantine/core';
import type { SandboxProject } from '#shared/api/sandbox.schema.ts';
import { PROJECT_INDENT_PX, projectOptions } from '../project-tree.ts';

type Props = {
  label: string;
  description?: string;
  projects: SandboxProject[];
  value: string | null;
  onChange: (value: string | null) => void;
  /** Shown when nothing is chosen; choosing nothing is allowed only with one. */
  placeholder?: string;
  error?: string;
  disabled?: boolean;
};

/** A choice among Todoist projects, each sub-project indented under its parent as in Todoist. */
export function ProjectSelect({
  label,
  description,
  projects,
  value,
  onChange,
  placeholder,
  error,
  disabled,
}: Props) {
  const options = projectOptions(projects);
  const depthOf = new Map(options.map((option) => [option.value, option.depth]));
  return (
    <Select
      label={label}
      description={description}
      data={options}
      value={value}
      onChange={onChange}
      placeholder={placeholder}
      clearable={placeholder !== undefined}
      allowDeselect={placeholder !== undefined}
      error={error}
      disabled={disabled}
      renderOption={({ option }) => (
        <Text size="sm" style={{ paddingInlineStart: (depthOf.get(option.value) ?? 0) * PROJECT_INDENT_PX }}>
          {option.label}
        </Text>
      )}
    />
  );
}
