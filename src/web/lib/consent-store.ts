import { useSyncExternalStore } from 'react';
import { type Consent, parseConsent, serializeConsent } from './consent-cookie.ts';

const listeners = new Set<() => void>();
let current: Consent = parseConsent(document.cookie);

/** Saves the visitor's choice in the consent cookie and tells every subscriber. */
export function saveConsent(choice: { analytical: boolean }): void {
  current = { isSet: true, analytical: choice.analytical };
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in browsers we support.
  document.cookie = serializeConsent(current, window.location.protocol === 'https:');
  for (const listener of listeners) listener();
}

export function useConsent(): Consent {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

export function currentConsent(): Consent {
  return current;
}
