import { describe, expect, it } from 'vitest';
import { isDeleteConfirmation } from './delete-account.ts';

describe('isDeleteConfirmation', () => {
  it.each(['delete', 'DELETE', 'Delete', 'dElEtE'])('accepts %s', (typed) => {
    expect(isDeleteConfirmation(typed)).toBe(true);
  });

  it.each(['', 'delet', 'deletee', ' delete', 'delete ', 'remove'])('refuses %j', (typed) => {
    expect(isDeleteConfirmation(typed)).toBe(false);
  });
});
