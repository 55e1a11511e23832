import { describe, expect, it } from 'vitest';
import { parseConsent, serializeConsent, UNDECIDED } from './consent-cookie.ts';

describe('consent cookie', () => {
  it('is undecided, with Analytical on, when there is no cookie', () => {
    expect(parseConsent('')).toEqual(UNDECIDED);
    expect(parseConsent('sid=abc; other=1')).toEqual({ isSet: false, analytical: true });
  });

  it('reads back what it wrote', () => {
    const written = serializeConsent({ isSet: true, analytical: false }, false);
    const pair = written.split(';')[0] ?? '';
    expect(parseConsent(`sid=abc; ${pair}`)).toEqual({ isSet: true, analytical: false });
  });

  it('stores the choice as {isSet, analytical} JSON for a year, on the whole site', () => {
    const written = serializeConsent({ isSet: true, analytical: true }, true);
    expect(decodeURIComponent(written.split(';')[0] ?? '')).toBe(
      'timeboxer-consent={"isSet":true,"analytical":true}',
    );
    expect(written).toContain('Max-Age=31536000');
    expect(written).toContain('Path=/');
    expect(written).toContain('Secure');
    expect(serializeConsent({ isSet: true, analytical: true }, false)).not.toContain('Secure');
  });

  it('treats a damaged or foreign value as no choice', () => {
    expect(parseConsent('timeboxer-consent=%7Bbroken')).toEqual(UNDECIDED);
    expect(parseConsent('timeboxer-consent=%7B%22isSet%22%3A%22yes%22%7D')).toEqual(UNDECIDED);
  });
});
