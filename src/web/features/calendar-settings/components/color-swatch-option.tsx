import { ColorSwatch, Group, Text } from '@mantine/core';

/** A Select option or value with its colour in front; without a colour, an outlined empty circle. */
export function ColorSwatchOption({ color, label }: { color: string | null; label: string }) {
  return (
    <Group gap={8} wrap="nowrap">
      <SwatchMark color={color} />
      <Text size="sm">{label}</Text>
    </Group>
  );
}

export function SwatchMark({ color }: { color: string | null }) {
  return color ? (
    <ColorSwatch color={color} size={14} aria-hidden />
  ) : (
    <ColorSwatch
      color="transparent"
      size={14}
      withShadow={false}
      style={{ border: '1px dashed var(--mantine-color-gray-6)' }}
      aria-hidden
    />
  );
}
