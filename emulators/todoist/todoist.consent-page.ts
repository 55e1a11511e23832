import {
  type ErrorPageOptions,
  renderErrorPage,
  renderSignInPage,
  type SignInPageOptions,
} from '../shared/sign-in-page.ts';

// The shared page knows only the Google and Facebook themes; until it has a Todoist one, the Google
// theme is re-coloured here (accent, background and logo). Should the markup change, the page still works.
const GOOGLE_ACCENT = /#0b57d0/g;
const GOOGLE_BACKGROUND = /#f0f4f9/g;
const TODOIST_ACCENT = '#dc4c3e';
const TODOIST_BACKGROUND = '#fcfaf8';
const TODOIST_LOGO = `<svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="9" fill="${TODOIST_ACCENT}" />
      <path fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"
        d="M9 14.5l4 2.5 9-5.5M9 21l4 2.5 9-5.5M9 27.5l4 2.5 9-5.5" />
    </svg>`;

function rebrand(html: string): string {
  return html
    .replace(/<svg\b[\s\S]*?<\/svg>/, TODOIST_LOGO)
    .replace(GOOGLE_ACCENT, TODOIST_ACCENT)
    .replace(GOOGLE_BACKGROUND, TODOIST_BACKGROUND);
}

export function renderConsentPage(options: Omit<SignInPageOptions, 'brand'>): string {
  return rebrand(renderSignInPage({ ...options, brand: 'google' }));
}

export function renderConsentErrorPage(options: Omit<ErrorPageOptions, 'brand'>): string {
  return rebrand(renderErrorPage({ ...options, brand: 'google' }));
}
