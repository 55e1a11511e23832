import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scheduleToast, TOAST_DELAY_MS, TOAST_DURATION_MS } from './toast-schedule.ts';

describe('scheduleToast', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the toast 500 ms later, not before', () => {
    const show = vi.fn();
    scheduleToast(show);
    vi.advanceTimersByTime(TOAST_DELAY_MS - 1);
    expect(show).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(show).toHaveBeenCalledTimes(1);
  });

  it('keeps the spec constants', () => {
    expect(TOAST_DELAY_MS).toBe(500);
    expect(TOAST_DURATION_MS).toBe(4000);
  });

  it('uses the timer it is given', () => {
    const timer = vi.fn();
    const show = vi.fn();
    scheduleToast(show, timer);
    expect(timer).toHaveBeenCalledWith(show, 500);
  });
});
