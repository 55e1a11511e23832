import { renderErrorPage, renderSignInPage, type SignInPageOptions } from '../shared/sign-in-page.ts';

/**
 * The shared sign-in page knows only the Google and Facebook themes, so we render the Google one and
 * swap in Microsoft's logo and colours. (A `microsoft` brand in the shared page would make this go away.)
 */
const MICROSOFT_LOGO = `<svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false" data-brand="microsoft">
      <rect x="1" y="1" width="18" height="18" fill="#f25022" />
      <rect x="21" y="1" width="18" height="18" fill="#7fba00" />
      <rect x="1" y="21" width="18" height="18" fill="#00a4ef" />
      <rect x="21" y="21" width="18" height="18" fill="#ffb900" />
    </svg>`;
const GOOGLE_ACCENT = '#0b57d0';
const GOOGLE_BACKGROUND = '#f0f4f9';
const MICROSOFT_ACCENT = '#0067b8';
const MICROSOFT_BACKGROUND = '#f2f2f2';

function rebrand(html: string): string {
  return html
    .replace(/<svg\b[\s\S]*?<\/svg>/, MICROSOFT_LOGO)
    .replaceAll(GOOGLE_ACCENT, MICROSOFT_ACCENT)
    .replaceAll(GOOGLE_BACKGROUND, MICROSOFT_BACKGROUND);
}

export const CONSENT_PAGE_TITLE = 'Sign in to your Microsoft account (sandbox)';

export function renderConsentPage(options: Omit<SignInPageOptions, 'brand' | 'title'>): string {
  return rebrand(renderSignInPage({ ...options, brand: 'google', title: CONSENT_PAGE_TITLE }));
}

export function renderConsentErrorPage(heading: string, message: string): string {
  return rebrand(renderErrorPage({ brand: 'google', title: CONSENT_PAGE_TITLE, heading, message }));
}
