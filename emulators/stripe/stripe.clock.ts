/**
 * The emulator's notion of "now" (unix seconds): real time plus what test-clock advances added.
 * Every object timestamp comes from here, so advancing it moves billing forward.
 */
export class StripeClock {
  #offsetSeconds = 0;

  now(): number {
    return Math.floor(Date.now() / 1000) + this.#offsetSeconds;
  }

  advance(seconds: number): void {
    this.#offsetSeconds += seconds;
  }

  get offsetSeconds(): number {
    return this.#offsetSeconds;
  }

  reset(): void {
    this.#offsetSeconds = 0;
  }
}

export type Interval = 'day' | 'week' | 'month' | 'year';

/**
 * `anchor` moved by `times` × (`count` `interval`s). Months keep the anchor's day and time of day,
 * falling back to the month's last day (Jan 31 → Feb 28 → Mar 31), as Stripe's billing cycle does.
 */
export function addInterval(anchor: number, interval: string, count: number, times = 1): number {
  if (interval === 'day') return anchor + 86_400 * count * times;
  if (interval === 'week') return anchor + 7 * 86_400 * count * times;
  const months = (interval === 'year' ? 12 : 1) * count * times;
  const date = new Date(anchor * 1000);
  const monthIndex = date.getUTCMonth() + months;
  const year = date.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  const moved = Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
  return Math.floor(moved / 1000);
}
