import { describe, expect, it } from 'vitest';
import { mailTextParts } from './mail-text.ts';

describe('mailTextParts', () => {
  it('keeps a text without addresses whole', () => {
    expect(mailTextParts('Hi Ada,\n\nNothing to see.')).toEqual([{ text: 'Hi Ada,\n\nNothing to see.' }]);
    expect(mailTextParts('')).toEqual([]);
  });

  it('makes links of the addresses, keeping the text around them', () => {
    const off = 'http://localhost:3211/notices/off?u=0b6a5f0e-7d3c-4c1e-9f5a-2a1b3c4d5e6f&t=a_b-C';
    expect(
      mailTextParts(`Connect Todoist: https://timeboxer.app/dashboard\n\n--\nTurn them off: ${off}\n`),
    ).toEqual([
      { text: 'Connect Todoist: ' },
      { text: 'https://timeboxer.app/dashboard', href: 'https://timeboxer.app/dashboard' },
      { text: '\n\n--\nTurn them off: ' },
      { text: off, href: off },
      { text: '\n' },
    ]);
  });

  it('leaves a sentence’s closing punctuation out of the link', () => {
    expect(mailTextParts('See http://localhost/dashboard. Or (http://localhost/profile).')).toEqual([
      { text: 'See ' },
      { text: 'http://localhost/dashboard', href: 'http://localhost/dashboard' },
      { text: '. Or (' },
      { text: 'http://localhost/profile', href: 'http://localhost/profile' },
      { text: ').' },
    ]);
  });

  it('does not take other schemes for links', () => {
    expect(mailTextParts('javascript:alert(1) ftp://x')).toEqual([{ text: 'javascript:alert(1) ftp://x' }]);
  });
});
