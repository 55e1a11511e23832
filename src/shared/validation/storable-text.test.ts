import { describe, expect, it } from 'vitest';
import { isPlainText, isStorableText, storableText } from './storable-text.ts';

describe('storable text', () => {
  it('keeps well-formed names, emoji and accents as they are', () => {
    for (const name of ['Work', 'Café ☕', 'Team 👩‍💻 sync', 'Ünïcödé', '']) {
      expect(isPlainText(name)).toBe(true);
      expect(storableText(name)).toBe(name);
    }
  });

  it('replaces a lone surrogate with U+FFFD and a control character with a space', () => {
    expect(storableText('Shared \ud800 project')).toBe('Shared \ufffd project');
    expect(storableText('tail \udc00')).toBe('tail \ufffd');
    expect(storableText('a\u0000b\u001fc\u007fd\u0085e')).toBe('a b c d e');
    expect(isPlainText(storableText('x\ud800\u0000'))).toBe(true);
  });

  it('tells plain text from text a database can store (free text keeps its line breaks)', () => {
    expect(isPlainText('line\nbreak')).toBe(false);
    expect(isStorableText('line\nbreak\ttab')).toBe(true);
    expect(isStorableText('nul\u0000')).toBe(false);
    expect(isStorableText('half \ud83d of an emoji')).toBe(false);
    expect(isStorableText('whole 😀 emoji')).toBe(true);
  });
});
