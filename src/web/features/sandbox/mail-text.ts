/** A run of a mail's plain text: words as they are, or a web address to show as a link. */
export type MailTextPart = { text: string; href?: string };

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
/** Punctuation that ends a sentence after an address rather than belonging to it. */
const TRAILING = /[.,;:!?)\]]+$/;

/** Splits a plain-text mail into text and its http(s) addresses, so the inbox can make them links. */
export function mailTextParts(text: string): MailTextPart[] {
  const parts: MailTextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const href = match[0].replace(TRAILING, '');
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: href, href });
    last = start + href.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
