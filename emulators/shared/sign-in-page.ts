import { escapeHtml, renderHtmlPage } from './html-page.ts';

export type Brand = 'google' | 'facebook' | 'microsoft' | 'todoist';

export type SignInPageOptions = {
  brand: Brand;
  title: string;
  subtitle: string;
  /** Path the form posts to. */
  action: string;
  /** Request parameters carried through the form; undefined or empty ones are left out. */
  hiddenFields: Record<string, string | undefined>;
  email: string;
  name: string;
};

export type ErrorPageOptions = {
  brand: Brand;
  title: string;
  heading: string;
  message: string;
};

const THEMES: Record<Brand, { accent: string; background: string; logo: string }> = {
  google: {
    accent: '#0b57d0',
    background: '#f0f4f9',
    logo: `<svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <g fill="none" stroke-width="7" transform="rotate(-45 20 20)">
        <circle cx="20" cy="20" r="14" stroke="#ea4335" stroke-dasharray="22 66" />
        <circle cx="20" cy="20" r="14" stroke="#fbbc05" stroke-dasharray="22 66" stroke-dashoffset="-22" />
        <circle cx="20" cy="20" r="14" stroke="#34a853" stroke-dasharray="22 66" stroke-dashoffset="-44" />
        <circle cx="20" cy="20" r="14" stroke="#4285f4" stroke-dasharray="22 66" stroke-dashoffset="-66" />
      </g></svg>`,
  },
  facebook: {
    accent: '#0a5bd3',
    background: '#f0f2f5',
    logo: `<svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="20" fill="#0866ff" />
      <path fill="#fff" d="M22.5 40V26h4.2l.8-5.2h-5v-3.4c0-1.4.7-2.8 3-2.8h2.2v-4.4s-2-.4-4-.4c-4.1 0-6.8 2.5-6.8 7v4H12.4V26h4.5v14z" />
    </svg>`,
  },
  microsoft: {
    accent: '#0067b8',
    background: '#f2f2f2',
    logo: `<svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false" data-brand="microsoft">
      <rect x="1" y="1" width="18" height="18" fill="#f25022" />
      <rect x="21" y="1" width="18" height="18" fill="#7fba00" />
      <rect x="1" y="21" width="18" height="18" fill="#00a4ef" />
      <rect x="21" y="21" width="18" height="18" fill="#ffb900" />
    </svg>`,
  },
  todoist: {
    accent: '#dc4c3e',
    background: '#fcfaf8',
    logo: `<svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <rect width="40" height="40" rx="9" fill="#dc4c3e" />
      <path fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"
        d="M9 14.5l4 2.5 9-5.5M9 21l4 2.5 9-5.5M9 27.5l4 2.5 9-5.5" />
    </svg>`,
  },
};

export function renderSignInPage(options: SignInPageOptions): string {
  const hidden = Object.entries(options.hiddenFields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  const body = `
    <p class="subtitle">${escapeHtml(options.subtitle)}</p>
    <form method="post" action="${escapeHtml(options.action)}">
      ${hidden}
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-hint" value="${escapeHtml(options.email)}">
        <p id="email-hint" class="hint">Every address is an account here: type another one to use another account.</p>
      </div>
      <div class="field">
        <label for="name">Name</label>
        <input id="name" name="name" type="text" autocomplete="name" required value="${escapeHtml(options.name)}">
      </div>
      <div class="actions">
        <button type="submit" name="decision" value="continue" class="primary">Continue</button>
        <button type="submit" name="decision" value="cancel" class="secondary" formnovalidate>Cancel</button>
      </div>
    </form>
    <p class="note">Local sandbox: no real account is used and nothing leaves this machine.</p>`;
  return layout(options.brand, options.title, body);
}

export function renderErrorPage(options: ErrorPageOptions): string {
  const body = `
    <p class="error-code">${escapeHtml(options.heading)}</p>
    <p>${escapeHtml(options.message)}</p>`;
  return layout(options.brand, options.title, body);
}

function layout(brand: Brand, title: string, body: string): string {
  const theme = THEMES[brand];
  const style = `
    body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: ${theme.background};
      font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #1f1f1f; }
    main { width: min(420px, calc(100vw - 32px)); background: #fff; border-radius: 24px; padding: 36px 32px 28px;
      box-shadow: 0 1px 3px rgb(0 0 0 / 12%); }
    h1 { font-size: 1.5rem; font-weight: 500; margin: 16px 0 4px; }
    .subtitle { margin: 0 0 24px; color: #444746; }
    .field { display: flex; flex-direction: column; gap: 4px; margin-bottom: 16px; }
    label { font-size: 0.875rem; font-weight: 500; color: #444746; }
    .hint { margin: 0; font-size: 0.8125rem; color: #444746; }
    input { font: inherit; padding: 12px 14px; border: 1px solid #747775; border-radius: 8px; }
    input:focus { outline: 2px solid ${theme.accent}; outline-offset: 1px; border-color: ${theme.accent}; }
    /* Continue comes first in the DOM so Enter submits it; row-reverse shows Cancel on the left. */
    .actions { display: flex; flex-direction: row-reverse; justify-content: flex-start; gap: 12px; margin-top: 24px; }
    button { font: inherit; font-weight: 500; padding: 10px 24px; border-radius: 20px; cursor: pointer; }
    .primary { background: ${theme.accent}; color: #fff; border: 1px solid ${theme.accent}; }
    .secondary { background: #fff; color: ${theme.accent}; border: 1px solid #747775; }
    button:focus-visible { outline: 2px solid #1f1f1f; outline-offset: 2px; }
    .note { margin: 24px 0 0; font-size: 0.8125rem; color: #5e5e5e; }
    .error-code { font-weight: 600; color: #b3261e; }`;
  const main = `${theme.logo}
    <h1>${escapeHtml(title)}</h1>
    ${body}`;
  return renderHtmlPage({ title, style, main });
}
