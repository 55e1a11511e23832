import type { Clock } from '#server/domain/shared/clock.port.ts';

/** The machine's clock: the one place in the server that reads the time itself. */
export const systemClock: Clock = () => new Date();
