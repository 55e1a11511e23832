import { CheckIcon, ColorSwatch, Group, Input } from '@mantine/core';
import { useId } from 'react';
import { LABEL_COLORS, type LabelColor } from '#shared/settings/constants.ts';
import { LABEL_COLOR_HEX, labelColorName, markColorOn } from '../../../lib/todoist-colors.ts';

type Props = {
  value: LabelColor;
  onChange: (color: LabelColor) => void;
  description?: string;
  disabled?: boolean;
};

/** The 20 Todoist label colours as swatch buttons; the chosen one is pressed and ticked. */
export function LabelColorPicker({ value, onChange, description, disabled }: Props) {
  const id = useId();
  return (
    <Input.Wrapper
      label="Label colour on Todoist"
      description={description}
      labelElement="div"
      id={id}
      // The swatches are buttons, so the group is named by the visible label.
      labelProps={{ id: `${id}-label` }}
    >
      <Group gap={6} mt={6} role="group" aria-labelledby={`${id}-label`}>
        {LABEL_COLORS.map((color) => (
          <ColorSwatch
            key={color}
            component="button"
            type="button"
            color={LABEL_COLOR_HEX[color]}
            size={28}
            aria-label={labelColorName(color)}
            aria-pressed={color === value}
            title={labelColorName(color)}
            disabled={disabled}
            onClick={() => onChange(color)}
            style={{
              cursor: disabled ? 'not-allowed' : 'pointer',
              color: markColorOn(LABEL_COLOR_HEX[color]),
            }}
          >
            {color === value && <CheckIcon size={12} />}
          </ColorSwatch>
        ))}
      </Group>
    </Input.Wrapper>
  );
}
