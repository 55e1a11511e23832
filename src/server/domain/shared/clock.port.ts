/** The current time, injected so that rules about time are testable (decision 011). */
export type Clock = () => Date;
