import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** Why a dialog's change was refused, announced as it appears. */
export function FormErrorAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" title={title} role="alert">
      {children}
    </Alert>
  );
}
