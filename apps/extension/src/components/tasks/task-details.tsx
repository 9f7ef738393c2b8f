import { LORA_NAMES, MUSIC_TASK } from "@overture/core/music";
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { clock, linkState, remaining } from "../../lib/shared/format.ts";
import { i18n, uiLanguage } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import type { Task, TaskDetails } from "../../lib/shared/types.ts";
import { composeFrom } from "../../lib/views/compose-from-task.ts";
import { errorText } from "../../lib/views/texts.ts";
import { seedsOf } from "../../lib/views/track-facts.ts";

/** Told in the first groups in words of their own, so not repeated among the engine's settings. */
const TOLD_ABOVE = new Set(["prompt", "lyrics", "duration", "seeds"]);

const seconds = (value: number | null): string =>
  value === null ? i18n.t("details.unknown") : clock(value * 1000);

/** The compose form's label of a parameter, else its own name. */
function labelOf(name: string): string {
  const label = i18n.t(`fields.${name}` as Parameters<typeof i18n.t>[0]);
  return label && !label.startsWith("fields") ? label : name;
}

type WordKey = "details.lora.none" | "details.lora.chineseRap" | "details.taskType.text2music";

/** Engine values said in words (core's `LORA_NAMES` and `MUSIC_TASK`), matched without case. */
const [NO_LORA, CHINESE_RAP_LORA] = LORA_NAMES;
const VALUE_WORDS: Record<string, Record<string, WordKey | undefined> | undefined> = {
  lora_name: {
    "": "details.lora.none",
    [NO_LORA.toLowerCase()]: "details.lora.none",
    [CHINESE_RAP_LORA.toLowerCase()]: "details.lora.chineseRap",
  },
  task: { [MUSIC_TASK]: "details.taskType.text2music" },
};

/** A value in words, when it has some; one not known here yet keeps its own name. */
function wordsOf(name: string, value: unknown): string | null {
  const text = value ?? "";
  const key = typeof text === "string" ? VALUE_WORDS[name]?.[text.toLowerCase()] : undefined;
  return key ? i18n.t(key) : null;
}

/** A parameter's value as a person reads it: On/Off, "none" for an empty text, lists joined,
 * the LoRA and the task type in words. */
function valueOf(name: string, value: unknown): string {
  const words = wordsOf(name, value);
  if (words !== null) return words;
  if (typeof value === "boolean")
    return value ? i18n.t("details.switchOn") : i18n.t("details.switchOff");
  if (value === "" || value === null || value === undefined) return i18n.t("details.none");
  if (Array.isArray(value)) return value.map(String).join(", ");
  return typeof value === "string" || typeof value === "number"
    ? String(value)
    : JSON.stringify(value);
}

function Row(props: { label: string; children: ComponentChildren; testId?: string }) {
  return (
    <div data-testid={props.testId}>
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/** How long it took, and what it cost: the made-group's rows (once the details arrived). */
function MadeRows(props: {
  task: Task;
  details: TaskDetails;
  take?: { take: number; of: number } | undefined;
}) {
  const { details, task } = props;
  const seeds = seedsOf(task);
  return (
    <>
      <Row label={i18n.t("details.when")}>
        {new Date(task.created_at).toLocaleString(uiLanguage(), {
          dateStyle: "medium",
          timeStyle: "short",
        })}
      </Row>
      {props.take && props.take.of > 1 ? (
        <Row label={i18n.t("details.take")}>
          {i18n.t("details.takeOf", { take: props.take.take, of: props.take.of })}
        </Row>
      ) : null}
      <Row label={i18n.t("details.took")}>
        {i18n.t("details.tookLine", {
          generation: seconds(details.timings.generation_seconds),
          waiting: seconds(details.timings.waiting_seconds),
          total: seconds(details.timings.total_seconds),
        })}
      </Row>
      <Row label={i18n.t("details.price")}>
        {details.price !== null
          ? `${String(details.price)} ${details.currency ?? ""}`.trim()
          : i18n.t("details.notReported")}
      </Row>
      {seeds.length > 0 ? <Row label={i18n.t("details.seeds")}>{seeds.join(", ")}</Row> : null}
    </>
  );
}

/**
 * Everything known about a task (fetched when opened), in a person's words and in groups: the
 * track (style, lyrics, length), how it was made (when, which take, how long it took, what it
 * cost, its seeds), and folded away the engine's settings under the compose form's labels, with
 * the platform's task id and, while it lasts, its own link to the original (which expires). Then
 * "Use these settings" (into the compose form) and "Regenerate" (the same again, a new task).
 */
export function TaskDetailsView(props: {
  task: Task;
  take?: { take: number; of: number } | undefined;
  now: number;
  linkFailed?: boolean;
  onCompose?: (() => void) | undefined;
  onRegenerated?: (() => void) | undefined;
}) {
  const { task } = props;
  const [details, setDetails] = useState<TaskDetails | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    send("tasks/details", { id: task.id }).then(setDetails, (error: unknown) => {
      setProblem(errorText(error));
    });
  }, [task.id]);

  const regenerate = () => {
    setBusy(true);
    setProblem(null);
    send("tasks/regenerate", { id: task.id })
      .then(() => props.onRegenerated?.())
      .catch((error: unknown) => {
        setProblem(errorText(error));
        setBusy(false);
      });
  };

  const link = props.linkFailed ? { valid: false, remainingMs: 0 } : linkState(task, props.now);
  const engine = Object.entries(task.params).filter(([name]) => !TOLD_ABOVE.has(name));
  return (
    <div class="stack details" data-testid="task-details">
      {details ? (
        <>
          <section aria-labelledby={`track-${task.id}`}>
            <h3 id={`track-${task.id}`}>{i18n.t("details.groupTrack")}</h3>
            <dl class="details-list">
              <Row label={i18n.t("details.style")}>{details.prompt || i18n.t("details.none")}</Row>
              <Row label={i18n.t("details.lyrics")}>
                <span class="lyrics">{details.lyrics || i18n.t("track.instrumental")}</span>
              </Row>
              <Row label={i18n.t("details.length")} testId="details-length">
                {i18n.t("details.lengthLine", {
                  actual: seconds(details.actual_duration_seconds),
                  requested: seconds(details.requested_duration_seconds),
                })}
              </Row>
            </dl>
          </section>
          <section aria-labelledby={`made-${task.id}`}>
            <h3 id={`made-${task.id}`}>{i18n.t("details.groupMade")}</h3>
            <dl class="details-list">
              <MadeRows task={task} details={details} take={props.take} />
            </dl>
          </section>
          <details class="engine">
            <summary>{i18n.t("details.engine")}</summary>
            <dl class="details-list">
              {engine.map(([name, value]) => (
                <Row key={name} label={labelOf(name)}>
                  {valueOf(name, value)}
                </Row>
              ))}
              <Row label={i18n.t("details.platformId")}>
                <code>{task.platform_task_id ?? i18n.t("details.none")}</code>
              </Row>
              {link.valid && task.file_url ? (
                <Row label={i18n.t("details.original")}>
                  <a href={task.file_url} target="_blank" rel="noreferrer">
                    {i18n.t("details.openOriginal")}
                  </a>{" "}
                  <span class="muted" data-testid="link-expiry">
                    {link.remainingMs !== null
                      ? i18n.t("result.expiresIn", { time: remaining(link.remainingMs) })
                      : ""}
                  </span>
                </Row>
              ) : null}
            </dl>
          </details>
        </>
      ) : problem ? null : (
        <p class="small muted">{i18n.t("details.loading")}</p>
      )}
      <div class="row">
        <button
          type="button"
          onClick={() => {
            composeFrom(task.params).then(
              () => props.onCompose?.(),
              (error: unknown) => {
                setProblem(errorText(error));
              },
            );
          }}
        >
          {i18n.t("details.useSettings")}
        </button>
        <button type="button" onClick={regenerate} disabled={busy}>
          {i18n.t("details.regenerate")}
        </button>
      </div>
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
