import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

export type BadgeTone = 'ok' | 'warning' | 'error' | 'neutral';

/** Shades chosen for WCAG AA: white text on the dark ones, dark text on yellow. */
const TONES: Record<BadgeTone, { color: string; c?: string }> = {
  ok: { color: 'teal.9' },
  warning: { color: 'yellow.4', c: 'dark.9' },
  error: { color: 'red.9' },
  neutral: { color: 'gray.7' },
};

/** A badge whose colour is backed by its words, in a tone every page uses the same way. */
export function StatusBadge({
  tone,
  children,
  ...props
}: { tone: BadgeTone; children: ReactNode } & Omit<BadgeProps, 'color' | 'c'>) {
  return (
    <Badge
      {...TONES[tone]}
      // Long badges wrap on narrow screens instead of being cut off.
      styles={{
        root: { height: 'auto', minHeight: 20 },
        label: { whiteSpace: 'normal', overflow: 'visible' },
      }}
      {...props}
    >
      {children}
    </Badge>
  );
}
