import { Alert, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';

/** While an emulated side is read, a spinner; if reading failed, why. */
export function ReadStatus({
  query,
  loadingLabel,
  failedText,
}: {
  query: UseQueryResult<unknown>;
  loadingLabel: string;
  /** Said before the error's own message. */
  failedText: string;
}) {
  if (query.isPending) return <Loader role="status" size="sm" aria-label={loadingLabel} />;
  if (query.isError) {
    return (
      <Alert color="red">
        {failedText}: {query.error.message}
      </Alert>
    );
  }
  return null;
}

/** Why the latest of a panel's changes to an emulated side failed, if one did. */
export function ChangeFailedAlert({ changes }: { changes: { error: Error | null }[] }) {
  const failure = changes.find((change) => change.error)?.error;
  if (!failure) return null;
  return (
    <Alert color="red" mb="sm" title="That did not work">
      {failure.message}
    </Alert>
  );
}
