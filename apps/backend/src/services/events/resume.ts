import type { EventFeed } from "./feed.ts";
import { resetFrame } from "./frames.ts";
import { resetReason } from "./position.ts";
import type { Stream } from "./stream.ts";

/**
 * Brings a stream opened with `Last-Event-ID: from` up to date, then makes it live: the replay of
 * every event after `from` (each task's newest only with `latestOnly`), or, when no replay can
 * (position.ts), one `event: reset` frame naming the newest id, after which the stream goes on
 * live from that id. The stream is in the hub already, so live events wait in it meanwhile.
 */
export async function resumeStream(
  feed: EventFeed,
  live: Stream,
  from: bigint,
  latestOnly: boolean,
): Promise<void> {
  let position = await feed.position();
  let reason = resetReason(from, position);
  if (reason === undefined) {
    await live.replay(latestOnly ? feed.latestPage : feed.replayPage, feed.replayPageSize);
    // Retention may have deleted events after `from` while the pages were read. Its mark
    // commits with its delete, so a mark at or below `from` now proves every page saw them all.
    position = await feed.position();
    reason = resetReason(from, position);
  }
  if (reason !== undefined) live.resetTo(position.head, resetFrame(reason, position.head));
  live.goLive();
}
