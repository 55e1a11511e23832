/** The frame of the emulators' hosted pages (sign-in, consent, Checkout, portal, event pages). */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** A whole HTML page: `title`, the page's `style` rules, and `main` (HTML) as its one `<main>`. */
export function renderHtmlPage(page: { title: string; style: string; main: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(page.title)}</title>
  <style>
    * { box-sizing: border-box; }
    ${page.style.trim()}
  </style>
</head>
<body>
  <main>
    ${page.main}
  </main>
</body>
</html>
`;
}
