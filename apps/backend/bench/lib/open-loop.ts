/**
 * Whether a server kept up with an open-loop load. Counting every delivery due in the window
 * (however late its answer) always gives the offered rate, so that cannot tell; what can is the
 * rate of answers that arrived within the window and the backlog — deliveries due but not yet
 * answered — at its start and at its end. A server that keeps up answers about the offered rate
 * and ends the window with about the backlog it started with.
 */
export interface OpenLoopCounts {
  offeredPerSecond: number;
  /** Answers received within the measured window, per second. */
  answeredPerSecond: number;
  /** Deliveries due and not yet answered when the window opened, and when it closed. */
  backlogAtStart: number;
  backlogAtEnd: number;
  /** Connections the deliveries go over (that many may be in flight at any time). */
  connections: number;
}

export type KeptUp = { kept: true } | { kept: false; reason: string };

/** Answered share of the offered rate below which the server did not keep up. */
export const ANSWERED_SHARE = 0.97;
/** Backlog growth allowed, in seconds of offered deliveries (beyond one per connection). */
const BACKLOG_GROWTH_SECONDS = 0.05;

export function keptUp(counts: OpenLoopCounts): KeptUp {
  const { offeredPerSecond: offered, answeredPerSecond: answered } = counts;
  if (!(answered >= ANSWERED_SHARE * offered)) {
    return {
      kept: false,
      reason: `answered ${Math.round(answered)}/s of ${Math.round(offered)}/s offered`,
    };
  }
  const grew = counts.backlogAtEnd - counts.backlogAtStart;
  const allowed = Math.max(counts.connections, BACKLOG_GROWTH_SECONDS * offered);
  if (grew > allowed) {
    return {
      kept: false,
      reason: `the backlog grew from ${counts.backlogAtStart} to ${counts.backlogAtEnd} deliveries`,
    };
  }
  return { kept: true };
}
