import { describe, expect, it } from "vitest";
import type { EventFeed } from "./feed.ts";
import type { LogPosition } from "./position.ts";
import { resumeStream } from "./resume.ts";
import { Stream } from "./stream.ts";

const decoder = new TextDecoder();

/** A stream resumed from `from`, whose frames are collected as text. */
function resumedStream(from: bigint) {
  const frames: string[] = [];
  const stream = new Stream({ remove: () => undefined }, 1, undefined, Infinity, from, true);
  stream.claim({
    write: (frame) => frames.push(decoder.decode(frame)),
    backlogged: () => false,
    close: () => undefined,
    fail: () => undefined,
  });
  return { stream, frames };
}

/** A feed whose log stands at each of `positions` in turn, and holds `rows` after any cursor. */
function fakeFeed(positions: LogPosition[], rows: { id: bigint; payload: string }[]) {
  let read = 0;
  const page = (_user: number, after: bigint) => Promise.resolve(rows.filter((r) => r.id > after));
  return {
    position: () => Promise.resolve(positions[Math.min(read++, positions.length - 1)]),
    replayPage: page,
    latestPage: page,
    replayPageSize: 200,
  } as unknown as EventFeed;
}

describe("resuming a stream", () => {
  it("replays the events after the cursor when retention kept them all", async () => {
    const { stream, frames } = resumedStream(5n);
    const feed = fakeFeed([{ head: 7n, prunedThrough: 5n }], [{ id: 7n, payload: "{}" }]);
    await resumeStream(feed, stream, 5n, false);
    expect(frames).toEqual(["id: 7\nevent: task\ndata: {}\n\n"]);
  });

  it("sends a reset after the replay when retention deleted events after the cursor meanwhile", async () => {
    const { stream, frames } = resumedStream(5n);
    const feed = fakeFeed(
      [
        { head: 7n, prunedThrough: 5n },
        { head: 7n, prunedThrough: 6n },
      ],
      [{ id: 7n, payload: "{}" }],
    );
    await resumeStream(feed, stream, 5n, false);
    expect(frames).toEqual([
      "id: 7\nevent: task\ndata: {}\n\n",
      'event: reset\nid: 7\ndata: {"reason":"older_than_retention","last_event_id":"7"}\n\n',
    ]);
  });

  it("goes on live after the reset from the newest id, also below the cursor of a client ahead", async () => {
    const { stream, frames } = resumedStream(99_999n);
    stream.deliver(8n, new TextEncoder().encode("live 8"));
    await resumeStream(fakeFeed([{ head: 7n, prunedThrough: 0n }], []), stream, 99_999n, false);
    stream.deliver(9n, new TextEncoder().encode("live 9"));
    expect(frames).toEqual([
      'event: reset\nid: 7\ndata: {"reason":"ahead_of_server","last_event_id":"7"}\n\n',
      "live 8",
      "live 9",
    ]);
  });
});
