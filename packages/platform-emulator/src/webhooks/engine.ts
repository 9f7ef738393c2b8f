import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import { consumeFault, type FaultState } from "../state/faults.ts";
import type { EmulatorState } from "../state/store.ts";
import { eventView } from "../state/task-views.ts";
import type { TaskRecord } from "../state/types.ts";
import { checked } from "../util/checked.ts";
import { randomHex, randomId } from "../util/random.ts";
import type { Tracker } from "../util/tracker.ts";
import { createDeliveryRunner, type DeliveryRunner } from "./runner.ts";
import type { DeliveryRecord } from "./types.ts";
import { wireUrl } from "./wire-url.ts";

export interface WebhookEngine {
  /** Called on every task status change (spec 6): emits one event when 5 rule 6 holds. */
  onTaskChange(task: TaskRecord): void;
  list(): DeliveryRecord[];
  get(id: string): DeliveryRecord | undefined;
  /** Manual retry of a failed or dropped record (spec 6 rule 4): one attempt, awaited. */
  retry(id: string): Promise<DeliveryRecord | undefined>;
  /** Sends events held by the `reorder` fault now, newest first. */
  flushHeld(taskId?: string): void;
  /** Aborts attempts in flight and forgets every record (reset, close). */
  reset(): void;
  /**
   * After a restart: takes back saved records and carries on. Scheduled attempts and retries are
   * re-armed at their stored time; an attempt that was in flight when the emulator stopped is
   * logged as interrupted and retried by the schedule; held events (a fault, not saved) go now.
   */
  restore(saved: readonly DeliveryRecord[]): void;
}

const MAX_RECORDS = 5_000;

export function createWebhookEngine(deps: {
  state: EmulatorState;
  clock: EmulatorClock;
  options: ResolvedOptions;
  faults: FaultState;
  tracker: Tracker;
  /** Called when a record changes outside a request (an attempt ended), for persistence. */
  changed?: () => void;
}): WebhookEngine {
  const { state, clock, options, faults, tracker } = deps;
  const runner = createDeliveryRunner({ ...deps, changed: deps.changed ?? (() => undefined) });
  const records = new Map<string, DeliveryRecord>();
  const held = new Map<string, DeliveryRecord[]>();

  function add(r: DeliveryRecord): void {
    records.set(r.id, r);
    if (records.size > MAX_RECORDS) {
      const oldest = records.keys().next().value;
      if (oldest !== undefined) records.delete(oldest);
    }
  }

  function flushHeld(taskId?: string): void {
    for (const [id, list] of held) {
      if (taskId !== undefined && id !== taskId) continue;
      held.delete(id);
      // One after another: attempts started together race on signing and on the network, so the
      // receiver could see them in any order, and this fault promises newest first.
      void tracker.track(sendInOrder([...list].reverse()));
    }
  }

  async function sendInOrder(list: DeliveryRecord[]): Promise<void> {
    for (const r of list) await runner.dispatch(r);
  }

  /** Sends (or holds, drops, duplicates, as the faults say) a task's new event. */
  function emit(task: TaskRecord, secret: string): void {
    const record = eventRecord(options, clock.now(), task, secret);
    add(record);
    if (consumeFault(faults.webhooks, "drop")) {
      record.state = "dropped";
      return;
    }
    const copies = consumeFault(faults.webhooks, "duplicate")
      ? [record, { ...record, id: randomId("dlv_", 12), attempts: [], duplicateOf: record.id }]
      : [record];
    for (const r of copies) {
      add(r);
      if (faults.webhooks.reorder) {
        r.state = "held";
        held.set(task.id, [...(held.get(task.id) ?? []), r]);
      } else void runner.dispatch(r);
    }
    const terminal = task.status !== "waiting" && task.status !== "in_progress";
    if (terminal) flushHeld(task.id);
  }

  return {
    onTaskChange(task) {
      const secret = state.accounts.get(task.namespace)?.webhookSecret ?? "";
      if (!task.webhookUrl || secret === "") return; // spec 5 rule 6: no callback at all
      emit(task, secret);
    },
    list: () => [...records.values()],
    get: (id) => records.get(id),
    async retry(id) {
      const r = records.get(id);
      if (!r) return undefined;
      if (r.state !== "failed" && r.state !== "dropped") return r;
      await runner.attempt(r, "manual");
      return r;
    },
    flushHeld,
    restore(saved) {
      for (const record of saved) {
        const r: DeliveryRecord = { ...record, attempts: [...record.attempts] };
        delete r.timer;
        add(r);
        restoreOne(runner, clock, r);
      }
    },
    reset() {
      runner.abortAll();
      for (const r of records.values()) if (r.timer !== undefined) clock.clearTimer(r.timer);
      records.clear();
      held.clear();
    },
  };
}

/** A delivery record of the task's current status (spec 2.7): one body text for every attempt. */
function eventRecord(
  options: ResolvedOptions,
  now: number,
  task: TaskRecord,
  secret: string,
): DeliveryRecord {
  const eventId = options.shape.eventIds === "live" ? randomHex(16) : randomId("evt_", 16);
  return {
    id: randomId("dlv_", 12),
    eventId,
    taskId: task.id,
    namespace: task.namespace,
    eventStatus: task.status,
    url: wireUrl(task.webhookUrl ?? ""),
    body: JSON.stringify(checked("callbackEvent", eventView(options, eventId, task))),
    createdAt: now,
    state: "scheduled",
    attempts: [],
    retriesUsed: 0,
    secretAtEvent: secret,
  };
}

/** Carries a saved record on after a restart (see `WebhookEngine.restore`). */
function restoreOne(runner: DeliveryRunner, clock: EmulatorClock, r: DeliveryRecord): void {
  const trigger = r.retriesUsed > 0 ? "retry" : "automatic";
  if (r.state === "in_flight")
    runner.ended(r, trigger, clock.now(), {
      signTimestamp: "",
      outcome: "network",
      error: "interrupted: the emulator stopped while this attempt was in flight",
      durationMs: 0,
    });
  else if (r.state === "scheduled" || r.state === "retry_scheduled")
    runner.armAt(r, r.nextAttemptAt ?? clock.now(), trigger);
  else if (r.state === "held") void runner.dispatch(r);
}
