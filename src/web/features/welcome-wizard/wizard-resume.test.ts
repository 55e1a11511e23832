import { describe, expect, it } from 'vitest';
import { forgetStep, rememberStep, resumedStep } from './wizard-resume.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the welcome guide step kept across a connection', () => {
  it('opens where it was, and at the start once forgotten', () => {
    const storage = memoryStorage();
    expect(resumedStep(5, storage)).toBe(0);
    rememberStep(2, storage);
    expect(resumedStep(5, storage)).toBe(2);
    forgetStep(storage);
    expect(resumedStep(5, storage)).toBe(0);
  });

  it('ignores a step the guide does not have, and storage the browser refuses', () => {
    const storage = memoryStorage();
    storage.setItem('timeboxer.welcome-guide-step', '9');
    expect(resumedStep(5, storage)).toBe(0);
    storage.setItem('timeboxer.welcome-guide-step', 'x');
    expect(resumedStep(5, storage)).toBe(0);
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(resumedStep(5, refusing)).toBe(0);
    expect(() => rememberStep(1, refusing)).not.toThrow();
    expect(() => forgetStep(null)).not.toThrow();
  });
});
