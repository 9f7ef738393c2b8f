import { useEffect, useState } from "preact/hooks";
import { composeFrom } from "../../lib/views/compose-from-task.ts";
import { clock } from "../../lib/shared/format.ts";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { Task, TaskDetails } from "../../lib/shared/types.ts";

const seconds = (value: number | null): string =>
  value === null ? i18n.t("details.unknown") : clock(value * 1000);

/** A parameter's value as sent: text as is, anything else as JSON. */
const shown = (value: unknown): string =>
  typeof value === "string" ? value : JSON.stringify(value);

/**
 * Everything known about a task (fetched when opened): each parameter sent, the lyrics, requested
 * and actual duration, timings, the cost when the platform gave one, the platform's task id; and
 * "Use these settings" (into the compose form) and "Regenerate" (the same again, as a new task).
 */
export function TaskDetailsView(props: { task: Task; onCompose?: (() => void) | undefined }) {
  const { task } = props;
  const [details, setDetails] = useState<TaskDetails | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    send("tasks/details", { id: task.id }).then(setDetails, (error: unknown) => {
      setProblem(errorText(error));
    });
  }, [task.id]);

  const useSettings = () => {
    composeFrom(task.params).then(
      () => props.onCompose?.(),
      (error: unknown) => {
        setProblem(errorText(error));
      },
    );
  };
  const regenerate = () => {
    setBusy(true);
    setProblem(null);
    send("tasks/regenerate", { id: task.id })
      .then(() => {
        setNote(i18n.t("details.regenerated"));
      })
      .catch((error: unknown) => {
        setProblem(errorText(error));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const params = Object.entries(task.params).filter(([name]) => name !== "lyrics");
  return (
    <div class="stack details" data-testid="task-details">
      {details ? (
        <dl class="details-list">
          {params.map(([name, value]) => (
            <div key={name}>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>{shown(value)}</dd>
            </div>
          ))}
          <div>
            <dt>{i18n.t("details.lyrics")}</dt>
            <dd class="lyrics">{details.lyrics || i18n.t("details.none")}</dd>
          </div>
          <div>
            <dt>{i18n.t("details.duration")}</dt>
            <dd>
              {i18n.t("details.durations", {
                requested: seconds(details.requested_duration_seconds),
                actual: seconds(details.actual_duration_seconds),
              })}
            </dd>
          </div>
          <div>
            <dt>{i18n.t("details.timings")}</dt>
            <dd>
              {i18n.t("details.timingLine", {
                waiting: seconds(details.timings.waiting_seconds),
                generation: seconds(details.timings.generation_seconds),
                total: seconds(details.timings.total_seconds),
              })}
            </dd>
          </div>
          {details.price !== null ? (
            <div>
              <dt>{i18n.t("details.price")}</dt>
              <dd>{`${String(details.price)} ${details.currency ?? ""}`.trim()}</dd>
            </div>
          ) : null}
          <div>
            <dt>{i18n.t("details.platformId")}</dt>
            <dd>
              <code>{task.platform_task_id ?? i18n.t("details.none")}</code>
            </dd>
          </div>
        </dl>
      ) : problem ? null : (
        <p class="small muted">{i18n.t("details.loading")}</p>
      )}
      <div class="row">
        <button type="button" onClick={useSettings}>
          {i18n.t("details.useSettings")}
        </button>
        <button type="button" onClick={regenerate} disabled={busy}>
          {i18n.t("details.regenerate")}
        </button>
      </div>
      {note ? (
        <p class="small" role="status">
          {note}
        </p>
      ) : null}
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
