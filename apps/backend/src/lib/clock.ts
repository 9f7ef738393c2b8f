/** Time as the backend sees it: injectable so tests can move it (token expiry, polling). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
