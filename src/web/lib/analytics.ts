import { currentConsent } from './consent-store.ts';

type DataLayerEvent = { event: string } & Record<string, string | number | boolean>;

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}

/**
 * The one way the app reports a conversion. Events go to `window.dataLayer`, which common trackers
 * read, and only with analytical consent; without it they are not recorded anywhere.
 */
export function trackConversion(
  event: 'sign_up_click' | 'login_click',
  details: Record<string, string> = {},
) {
  const consent = currentConsent();
  if (!consent.isSet || !consent.analytical) return;
  window.dataLayer ??= [];
  window.dataLayer.push({ event, ...details });
}
