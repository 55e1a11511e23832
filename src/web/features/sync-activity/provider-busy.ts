import type { SyncActivity } from '#shared/api/sync.schema.ts';
import { PROVIDER_NAMES } from '#shared/sync/provider-names.ts';
import { formatInstant } from '../../lib/date-time-format.ts';

type ProviderBusy = NonNullable<SyncActivity['providerBusy']>;

/**
 * The calendar provider's limit for all of Timeboxer's users is reached, so the user's changes wait (the
 * sync's app-wide budget): said in words, with when they go through. Nothing is lost, nothing to do.
 */
export function providerBusyText(
  busy: ProviderBusy,
  timeZone: string,
  locale?: string,
): { title: string; message: string } {
  const name = PROVIDER_NAMES[busy.provider];
  return {
    title: 'Sync is running behind',
    message:
      `${name} limits how many changes all Timeboxer users may sync each minute, and that limit is ` +
      `reached right now. Your changes are kept and sync by about ${formatInstant(busy.until, timeZone, 'time', locale)}; ` +
      'there is nothing you need to do.',
  };
}
