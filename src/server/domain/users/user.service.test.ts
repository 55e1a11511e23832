import { describe, expect, it } from 'vitest';
import { namesOf } from './user.service.ts';

describe('namesOf', () => {
  it('takes the given first name when the provider sends one', () => {
    expect(namesOf({ name: 'Ada Lovelace', firstName: 'Augusta', email: 'a@x.org' })).toEqual({
      firstName: 'Augusta',
      displayName: 'Ada Lovelace',
    });
  });

  it('derives the first name from the full name', () => {
    expect(namesOf({ name: '  Grace   Brewster Hopper ', email: 'g@x.org' })).toEqual({
      firstName: 'Grace',
      displayName: 'Grace   Brewster Hopper',
    });
  });

  it('falls back to the e-mail address when no name is shared', () => {
    expect(namesOf({ name: '', email: 'linus@example.com' })).toEqual({
      firstName: 'linus',
      displayName: 'linus',
    });
  });
});
