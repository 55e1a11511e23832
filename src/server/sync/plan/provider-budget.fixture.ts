/** Calls made at a moment (ms), as the budget tests record them. */
export type CallsMade = { at: number; calls: number };

/** The most calls made within any window of `windowMs` that starts at one of the moments. */
export function mostInAnyWindow(made: CallsMade[], windowMs: number): number {
  let most = 0;
  for (const first of made) {
    const within = made
      .filter((each) => each.at >= first.at && each.at < first.at + windowMs)
      .reduce((sum, each) => sum + each.calls, 0);
    most = Math.max(most, within);
  }
  return most;
}
