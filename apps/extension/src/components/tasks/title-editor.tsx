import { TITLE_MAX_LENGTH } from "@overture/backend/api";
import { useEffect, useRef, useState } from "preact/hooks";
import { i18n } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { Task } from "../../lib/shared/types.ts";

/**
 * Why a title cannot be saved as typed, or null: the backend's own rules and limit, told before
 * asking (the backend still decides; this only spares a round trip).
 */
export function titleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return i18n.t("task.titleEmpty");
  if (Array.from(trimmed).length > TITLE_MAX_LENGTH)
    return i18n.t("task.titleTooLong", { max: TITLE_MAX_LENGTH });
  return null;
}

/** Inline rename: Enter saves, Escape gives up; a refused title stays open with the reason. */
export function TitleEditor(props: { task: Task; initial: string; onDone: () => void }) {
  const [value, setValue] = useState(props.initial);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const save = () => {
    const invalid = titleProblem(value);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setSaving(true);
    setProblem(null);
    send("tasks/update", { id: props.task.id, patch: { title: value.trim() } })
      .then(() => {
        props.onDone();
      })
      .catch((error: unknown) => {
        setProblem(errorText(error));
        setSaving(false);
      });
  };

  return (
    <span class="stack title-editor">
      <input
        ref={input}
        type="text"
        aria-label={i18n.t("task.titleLabel")}
        aria-invalid={problem ? true : undefined}
        value={value}
        disabled={saving}
        onInput={(event) => {
          setValue(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            save();
          } else if (event.key === "Escape") {
            event.preventDefault();
            props.onDone();
          }
        }}
      />
      {problem ? (
        <span class="small" role="alert">
          {problem}
        </span>
      ) : null}
    </span>
  );
}
