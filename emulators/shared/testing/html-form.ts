/** Test support: reads the sign-in form like a browser would and submits it. */

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

function decodeEntities(value: string): string {
  return value.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decodeEntities(match[1]);
}

export function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const formTag = /<form\b[^>]*>/.exec(html)?.[0];
  if (!formTag) throw new Error('The page has no form');
  const fields: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    if (name) fields[name] = attribute(tag, 'value') ?? '';
  }
  return { action: attribute(formTag, 'action') ?? '', fields };
}

/** Posts the form found in `html` (served at `pageUrl`) with `values` typed over the defaults. */
export async function submitForm(
  pageUrl: string,
  html: string,
  values: Record<string, string>,
): Promise<Response> {
  const { action, fields } = parseForm(html);
  return fetch(new URL(action, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, ...values }),
    redirect: 'manual',
  });
}

/**
 * Opens an emulated sign-in or consent page and submits its account form as a person would: the
 * chosen e-mail and name (else `defaults`), continuing unless told otherwise. Returns the page, its
 * HTML and the answer.
 */
export async function fillInAccountForm(
  url: URL,
  choice: { email?: string; name?: string; decision?: string },
  defaults: { email: string; name: string },
): Promise<{ page: Response; html: string; response: Response }> {
  const page = await fetch(url);
  const html = await page.text();
  const response = await submitForm(url.href, html, {
    email: choice.email ?? defaults.email,
    name: choice.name ?? defaults.name,
    decision: choice.decision ?? 'continue',
  });
  return { page, html, response };
}
