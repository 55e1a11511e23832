import { CONSENT_COOKIE_NAME } from '#shared/product.ts';

/** The visitor's cookie choice, stored as `{isSet, analytical}` in the consent cookie. */
export type Consent = { isSet: boolean; analytical: boolean };

/** Before a choice: nothing set, and the Analytical toggle starts on. */
export const UNDECIDED: Consent = { isSet: false, analytical: true };

const ONE_YEAR_S = 365 * 24 * 60 * 60;

export function parseConsent(cookieHeader: string): Consent {
  const raw = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE_NAME}=`))
    ?.slice(CONSENT_COOKIE_NAME.length + 1);
  if (!raw) return UNDECIDED;
  try {
    const value: unknown = JSON.parse(decodeURIComponent(raw));
    if (
      typeof value === 'object' &&
      value !== null &&
      'isSet' in value &&
      'analytical' in value &&
      typeof value.isSet === 'boolean' &&
      typeof value.analytical === 'boolean'
    ) {
      return { isSet: value.isSet, analytical: value.analytical };
    }
  } catch {
    // A damaged cookie counts as no choice: the banner asks again.
  }
  return UNDECIDED;
}

export function serializeConsent(consent: Consent, secure: boolean): string {
  const value = encodeURIComponent(JSON.stringify({ isSet: consent.isSet, analytical: consent.analytical }));
  return `${CONSENT_COOKIE_NAME}=${value}; Max-Age=${ONE_YEAR_S}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}
