const KEY = 'timeboxer.welcome-guide-step';

type StepStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The tab's session storage, or none where the browser refuses it (privacy modes). */
function sessionStore(): StepStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The step the guide was on in this tab: connecting an account leaves the page for the provider's consent
 * page, and the guide opens again where it was, the step now marked done.
 */
export function resumedStep(count: number, storage: StepStorage | null = sessionStore()): number {
  try {
    const step = Number(storage?.getItem(KEY) ?? 0);
    return Number.isInteger(step) && step >= 0 && step < count ? step : 0;
  } catch {
    return 0;
  }
}

export function rememberStep(step: number, storage: StepStorage | null = sessionStore()) {
  try {
    storage?.setItem(KEY, String(step));
  } catch {
    // Not remembered: the guide opens at its first step again.
  }
}

export function forgetStep(storage: StepStorage | null = sessionStore()) {
  try {
    storage?.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}
