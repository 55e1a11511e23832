/** Per docs/product-rules.md §9: a toast appears 500 ms after its cause and stays 4000 ms. */
export const TOAST_DELAY_MS = 500;
export const TOAST_DURATION_MS = 4000;

type Timer = (run: () => void, ms: number) => unknown;

/** Runs `show` once the delay has passed; the timer is injectable so the timing can be tested. */
export function scheduleToast(show: () => void, timer: Timer = setTimeout): void {
  timer(show, TOAST_DELAY_MS);
}
