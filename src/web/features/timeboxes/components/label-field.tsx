import { Autocomplete, ColorSwatch, type ComboboxItem, Group, type OptionsFilter, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { TodoistLabel } from '#shared/api/current-user.schema.ts';
import { LABEL_COLOR_HEX, toLabelColor } from '../../../lib/todoist-colors.ts';
import { filterLabelChoices, findTodoistLabel, labelChoices } from '../timebox-form.ts';

type Props = {
  labels: readonly TodoistLabel[];
  /** The label of the setting being edited, shown as a warning option when Todoist lacks it. */
  editedLabel?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
};

/** The label's Todoist colour as a small swatch; null when Todoist does not have the label. */
function swatch(labels: readonly TodoistLabel[], name: string) {
  const color = toLabelColor(findTodoistLabel(labels, name)?.color);
  return color ? <ColorSwatch color={LABEL_COLOR_HEX[color]} size={14} aria-hidden /> : null;
}

/** Pick one of the Todoist labels, or type a new one (it is created on Todoist when saving). */
export function LabelField({ labels, editedLabel, value, onChange, error, disabled }: Props) {
  const choices = labelChoices(labels, editedLabel);
  const missing = new Set(choices.filter((choice) => choice.missing).map((choice) => choice.value));
  const values = choices.map((choice) => choice.value);

  const filter: OptionsFilter = ({ options, search }) => {
    const items = options.filter((option): option is ComboboxItem => 'value' in option);
    const shown = new Set(
      filterLabelChoices(
        items.map((item) => item.value),
        search,
      ),
    );
    return items.filter((item) => shown.has(item.value));
  };

  return (
    <Autocomplete
      label="Label"
      description="Choose one of your Todoist labels, or type a new one."
      placeholder="e.g. 30Minutes"
      data={[...new Set(values)]}
      value={value}
      onChange={onChange}
      error={error}
      disabled={disabled}
      filter={filter}
      maxDropdownHeight={240}
      leftSection={swatch(labels, value)}
      renderOption={({ option }) =>
        missing.has(option.value) ? (
          <Group gap={6} wrap="nowrap">
            <IconAlertTriangle size={16} color="var(--mantine-color-yellow-8)" aria-hidden />
            <div>
              <Text size="sm">{option.value}</Text>
              <Text size="xs">Not available on your Todoist account</Text>
            </div>
          </Group>
        ) : (
          <Group gap={8} wrap="nowrap">
            {swatch(labels, option.value)}
            <Text size="sm">{option.value}</Text>
          </Group>
        )
      }
    />
  );
}
