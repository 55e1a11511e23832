import { List, Text } from '@mantine/core';

/** A preview's line: a count in words, then the first of its items by title and time (when it names any). */
export function PreviewLine({ text, names }: { text: string; names: string | null }) {
  return (
    <List.Item>
      {text}
      {names && (
        <Text span size="sm" c="dimmed" display="block">
          {names}
        </Text>
      )}
    </List.Item>
  );
}
