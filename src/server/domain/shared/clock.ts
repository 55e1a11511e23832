/** The current time, injected so that rules about time are testable. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
