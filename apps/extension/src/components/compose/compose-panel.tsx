import { i18n } from "../../lib/shared/i18n.ts";
import { useEffect, useRef, useState } from "preact/hooks";
import { type ErrorCode, OvertureError } from "../../lib/shared/errors.ts";
import { send } from "../../lib/shared/messages.ts";
import { ADVANCED_FIELDS, type FieldName, PRESETS } from "../../lib/views/music-form.ts";
import { type Snapshot, quotaFull } from "../../lib/shared/snapshot.ts";
import { errorText, fieldLabel, listOf, secondsText } from "../../lib/views/texts.ts";
import { useCompose } from "../../lib/views/use-compose.ts";
import { Field } from "./field.tsx";
import { LyricTags } from "./lyric-tags.tsx";

/**
 * Failures that say the backend (or the way to it) was down, not that the form is wrong: a
 * later snapshot written while online proves it is back, so their banner may go then.
 */
const CONNECTION_CODES: readonly ErrorCode[] = [
  "offline",
  "backend_unreachable",
  "shutting_down",
  "database_unavailable",
];

/** The banner under the form; `healedBy`: a snapshot newer than this clears a connection failure. */
interface Problem {
  text: string;
  healedBy: number | null;
}

export function ComposePanel(props: {
  snapshot: Snapshot;
  onSubmitted: () => void;
  onAccount: () => void;
}) {
  const form = useCompose();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  // The snapshot as of now, not of the render that started the submit: one written while the
  // request ran may be older than the failure.
  const latest = useRef(props.snapshot);
  latest.current = props.snapshot;
  const { updatedAt, connectivity } = props.snapshot;
  useEffect(() => {
    if (problem?.healedBy != null && connectivity === "online" && updatedAt > problem.healedBy)
      setProblem(null);
  }, [problem, updatedAt, connectivity]);
  // Controlled, and kept in step with the person's own clicks (onToggle), so opening it for an
  // invalid field works even after they closed it by hand.
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ name: FieldName } | null>(null);
  useEffect(() => {
    // After the render that opened the section: a field inside closed <details> cannot take focus.
    if (focusRequest) document.getElementById(`field-${focusRequest.name}`)?.focus();
  }, [focusRequest]);
  const { selection } = props.snapshot;
  if (!form.values) return <div aria-busy="true" />;
  const values = form.values;

  /** Opens "Advanced" when a refused field is inside it, and focuses the first refused field. */
  const reveal = (invalid: readonly FieldName[]) => {
    if (invalid.some((name) => ADVANCED_FIELDS.includes(name))) setAdvancedOpen(true);
    const first = invalid[0];
    if (first) setFocusRequest({ name: first });
  };

  const submit = (event: Event) => {
    event.preventDefault();
    const payload = form.attempt();
    if (!payload) {
      const invalid = form.invalidFields();
      setProblem({
        text: i18n.t("compose.fixFields", { fields: listOf(invalid.map(fieldLabel)) }),
        healedBy: null,
      });
      reveal(invalid);
      return;
    }
    setBusy(true);
    setProblem(null);
    send("tasks/submit", { params: payload })
      .then(() => {
        props.onSubmitted();
      })
      .catch((error: unknown) => {
        if (error instanceof OvertureError && error.fields?.length)
          reveal(form.showServerErrors(error.fields));
        const connection = error instanceof OvertureError && CONNECTION_CODES.includes(error.code);
        setProblem({
          text: errorText(error),
          healedBy: connection ? latest.current.updatedAt : null,
        });
      })
      .finally(() => {
        setBusy(false);
      });
  };

  const common = { onChange: form.change, onBlur: form.blur };
  return (
    <form class="stack" onSubmit={submit} noValidate aria-label={i18n.t("app.compose")}>
      <ComposeBanners snapshot={props.snapshot} onAccount={props.onAccount} />
      <PresetButtons
        chosen={form.preset}
        onChoose={(preset) => {
          form.usePreset(preset);
        }}
      />
      <Field
        {...common}
        name="prompt"
        value={values.prompt}
        error={form.messageFor("prompt")}
        hint={i18n.t("compose.promptHint")}
      />
      <Field
        {...common}
        name="lyrics"
        value={values.lyrics}
        error={form.messageFor("lyrics")}
        hint={i18n.t("compose.lyricsHint")}
      />
      <LyricTags lyrics={String(values.lyrics)} />
      <Field
        {...common}
        name="duration"
        value={values.duration}
        error={form.messageFor("duration")}
        slider
        formatValue={secondsText}
      />
      <AdvancedFields
        open={advancedOpen}
        onToggle={setAdvancedOpen}
        render={(name) => (
          <Field
            {...common}
            key={name}
            name={name}
            value={values[name]}
            error={form.messageFor(name)}
          />
        )}
      />
      {problem ? (
        <p class="banner bad" role="alert">
          {problem.text}
        </p>
      ) : null}
      <div class="row spread">
        <button type="button" onClick={form.reset}>
          {i18n.t("compose.resetDefaults")}
        </button>
        <button type="submit" class="primary" disabled={busy || !selection}>
          {busy ? i18n.t("compose.submitting") : i18n.t("compose.submit")}
        </button>
      </div>
    </form>
  );
}

/** Which token the form will use, or the way to choose one; and a full quota, said once. */
function ComposeBanners(props: { snapshot: Snapshot; onAccount: () => void }) {
  const { selection, quota } = props.snapshot;
  return (
    <>
      {selection ? (
        <p class="muted small">
          {i18n.t("compose.using", {
            token: selection.token_name ?? `#${selection.token_id}`,
            namespace: selection.namespace,
          })}
        </p>
      ) : (
        <p class="banner warn" role="status">
          {i18n.t("compose.needToken")}{" "}
          <button type="button" class="link" onClick={props.onAccount}>
            {i18n.t("app.account")}
          </button>
        </p>
      )}
      {quota && quotaFull(quota) ? (
        <p class="banner warn" role="status" data-testid="quota-full">
          {i18n.t("state.quotaFull", { max: quota.max_concurrency ?? "?" })}
        </p>
      ) : null}
    </>
  );
}

/** The presets as toggle buttons, the chosen one pressed. */
function PresetButtons(props: {
  chosen: string | null | undefined;
  onChoose: (preset: (typeof PRESETS)[number]) => void;
}) {
  return (
    <fieldset class="row" style="border:0;padding:0;margin:0">
      <legend class="small muted">{i18n.t("compose.presets")}</legend>
      {PRESETS.map((preset) => (
        <button
          type="button"
          key={preset.id}
          aria-pressed={props.chosen === preset.id}
          onClick={() => {
            props.onChoose(preset);
          }}
        >
          {i18n.t(`compose.preset.${preset.id}`)}
        </button>
      ))}
    </fieldset>
  );
}

/** The engine's settings, folded; kept open or shut by the panel (it opens it for a refused field). */
function AdvancedFields(props: {
  open: boolean;
  onToggle: (open: boolean) => void;
  render: (name: FieldName) => preact.JSX.Element;
}) {
  return (
    <details
      class="advanced"
      // A details element is a group, but its summary does not name it: without this a screen
      // reader entering the fields announces an unnamed group.
      aria-labelledby="compose-advanced-summary"
      open={props.open}
      onToggle={(e) => {
        props.onToggle(e.currentTarget.open);
      }}
    >
      <summary id="compose-advanced-summary">{i18n.t("compose.advanced")}</summary>
      <div class="grid">{ADVANCED_FIELDS.map((name) => props.render(name))}</div>
    </details>
  );
}
