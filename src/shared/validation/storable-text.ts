/**
 * Text a database can store and a screen can show. PostgreSQL refuses NUL in `text` and a lone UTF-16
 * surrogate (half of an emoji) in `jsonb`; other control characters are never part of a name. Names the
 * providers send are made storable at the edge (`storableText`); what a person sends that is not is
 * refused with `UNSTORABLE_TEXT_MESSAGE`.
 */

/** C0 and C1 control characters and DEL (`\p{Cc}`), or a surrogate not part of a pair (`\p{Cs}` under `u`). */
const CONTROL_OR_LONE_SURROGATE = /\p{Cc}|\p{Cs}/u;
const LONE_SURROGATE = /\p{Cs}/u;

export const UNSTORABLE_TEXT_MESSAGE =
  'Your request contains characters we cannot store (a control character, or half of an emoji). Please remove them and try again.';

/** Whether text is free of control characters and lone surrogates: fit for a name or a label. */
export const isPlainText = (value: string): boolean => !CONTROL_OR_LONE_SURROGATE.test(value);

/** Whether any database column can take the text (free text keeps its line breaks and tabs). */
export const isStorableText = (value: string): boolean =>
  !value.includes('\u0000') && !LONE_SURROGATE.test(value);

/** A provider's name made plain: a lone surrogate becomes U+FFFD, each control character a space. */
export function storableText(value: string): string {
  if (isPlainText(value)) return value;
  return value.toWellFormed().replace(/\p{Cc}/gu, ' ');
}
