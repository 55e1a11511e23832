import type Stripe from 'stripe';
import { escapeHtml, renderHtmlPage } from '../shared/html-page.ts';

export { escapeHtml };

export function formatAmount(amount: number, currency: string): string {
  const value = (amount / 100).toFixed(2);
  return currency.toLowerCase() === 'usd' ? `$${value}` : `${value} ${currency.toUpperCase()}`;
}

export function formatDate(timestamp: number): string {
  return new Date(timestamp * 1000).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "$3.00 per month", "$24.00 per year", "$5.00 every 3 months". */
export function formatRecurringPrice(price: Stripe.Price): string {
  const amount = formatAmount(price.unit_amount ?? 0, price.currency);
  const interval = price.recurring?.interval ?? 'month';
  const count = price.recurring?.interval_count ?? 1;
  return count === 1 ? `${amount} per ${interval}` : `${amount} every ${count} ${interval}s`;
}

const STYLE = `
    body { margin: 0; min-height: 100vh; background: #f6f9fc; color: #1a1f36;
      font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
    main { width: min(480px, calc(100vw - 32px)); margin: 48px auto; background: #fff; border-radius: 12px;
      padding: 32px; box-shadow: 0 2px 5px rgb(60 66 87 / 8%), 0 1px 1px rgb(0 0 0 / 12%); }
    h1 { font-size: 1.25rem; font-weight: 600; margin: 0 0 4px; }
    h2 { font-size: 1rem; font-weight: 600; margin: 24px 0 8px; }
    .muted { color: #697386; margin: 0; }
    .price { font-size: 2rem; font-weight: 700; margin: 8px 0 0; }
    .field { display: flex; flex-direction: column; gap: 4px; margin-top: 16px; }
    .row { display: flex; gap: 12px; }
    .row .field { flex: 1; }
    label { font-size: 0.8125rem; font-weight: 500; color: #3c4257; }
    input { font: inherit; padding: 10px 12px; border: 1px solid #d5dbe1; border-radius: 6px; }
    input:focus { outline: 2px solid #635bff; outline-offset: 1px; }
    button { font: inherit; font-weight: 600; padding: 10px 16px; border-radius: 6px; cursor: pointer; }
    .primary { width: 100%; margin-top: 24px; background: #635bff; color: #fff; border: 0; }
    .secondary { background: #fff; color: #1a1f36; border: 1px solid #d5dbe1; }
    .danger { background: #fff; color: #df1b41; border: 1px solid #d5dbe1; }
    .error { color: #df1b41; margin-top: 16px; }
    .card { border: 1px solid #e3e8ee; border-radius: 8px; padding: 16px; margin-top: 12px; }
    .actions { display: flex; gap: 8px; margin-top: 12px; flex-wrap: wrap; }
    a { color: #635bff; text-decoration: none; }
    .note { margin-top: 24px; font-size: 0.8125rem; color: #697386; }`;

/** The frame of the sandbox's hosted pages (Checkout, customer portal). */
export function renderStripePage(title: string, body: string): string {
  const main = `${body}
    <p class="note">Stripe sandbox: no real payment is made and nothing leaves this machine.</p>`;
  return renderHtmlPage({ title, style: STYLE, main });
}

export function renderMessagePage(
  title: string,
  message: string,
  link?: { href: string; label: string },
): string {
  const action = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '';
  return renderStripePage(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="muted">${escapeHtml(message)}</p>${action}`,
  );
}
