import { describe, expect, it } from 'vitest';
import { todoistAccountType } from './todoist-account-type.ts';

describe('todoistAccountType', () => {
  it.each([
    ['current_personal_plan', 'Premium'],
    ['legacy_personal_plan', 'Premium'],
    ['teams_business_member', 'Business'],
    ['not_premium', 'Free'],
    ['something_new', 'Free'],
  ])('%s → %s', (status, type) => {
    expect(todoistAccountType(status)).toBe(type);
  });
});
