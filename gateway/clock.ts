// Time enters through a factory argument so tests can pin tokens' expiry and order timestamps.

/** Milliseconds since the epoch. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
