import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/settings/settings.schema.ts';
import { InvalidValueError } from '../shared/domain-errors.ts';
import type { SettingsRepository } from './settings.repository.ts';
import { createSettingsService } from './settings.service.ts';

/** A repository in which another request has just inserted the same label: the check passes, the insert fails. */
function racingRepository(): SettingsRepository {
  const uniqueViolation = new Error('query failed', { cause: { code: '23505' } });
  return {
    readiness: async () => ({
      todoistConnected: true,
      calendarConnected: false,
      calendarProvider: null,
      todo: { todoistUserId: 't1', taskDurationActive: false } as never,
      calendar: undefined,
      timeboxCount: 0,
    }),
    timeboxLabels: async () => [],
    addTimebox: async () => Promise.reject(uniqueViolation),
    updateTimebox: async () => Promise.reject(uniqueViolation),
  } as unknown as SettingsRepository;
}

describe('createSettingsService', () => {
  it('answers a duplicate that slipped past the check with the duplicate-label message', async () => {
    const service = createSettingsService({
      settings: racingRepository(),
      clock: () => new Date('2026-03-01T09:00:00Z'),
    });
    const error = await service.addTimebox('u1', 'Focus', 25).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect(error).toMatchObject({ field: 'label', message: MESSAGES.labelDuplicate });
  });
});
