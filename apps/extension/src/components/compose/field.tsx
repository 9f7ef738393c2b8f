import { i18n } from "../../lib/shared/i18n.ts";
import { MUSIC_FIELDS, type MusicFieldSpec } from "@overture/core/music";
import { type FieldName, isBlank, numberDefault, sentLength } from "../../lib/views/music-form.ts";
import type { DraftValue } from "../../lib/shared/storage.ts";
import { fieldLabel, numberText } from "../../lib/views/texts.ts";
import { CharCount } from "./char-count.tsx";

export interface FieldProps {
  name: FieldName;
  value: DraftValue;
  error: string | undefined;
  hint?: string;
  onChange: (name: FieldName, value: DraftValue) => void;
  onBlur: (name: FieldName) => void;
  /** Show a slider next to the number box (duration). */
  slider?: boolean;
  /** A number of this field in words, with its unit ("60 seconds"); plain digits otherwise. */
  formatValue?: (value: number) => string;
}

/** The attributes every control of a field shares: its id, name, state and descriptions. */
interface Common {
  id: string;
  name: FieldName;
  "aria-invalid": "true" | undefined;
  "aria-describedby": string | undefined;
  onBlur: () => void;
}

/** What a control's `onChange`/`onInput` reads. */
const text = (event: Event) => (event.currentTarget as HTMLInputElement).value;

/**
 * The line under a field: the caller's hint, what an empty number box stands for, the range.
 * An empty number box stands for the field's default (core fills it in): it says so, as a
 * placeholder and in the hint, rather than sending a value the person never saw.
 */
function hintOf(props: FieldProps, spec: MusicFieldSpec): string {
  const range =
    spec.min !== undefined && spec.max !== undefined
      ? i18n.t("compose.range", { min: spec.min, max: spec.max })
      : null;
  const fallback = numberDefault(props.name);
  const defaultUsed =
    fallback !== null && isBlank(props.value)
      ? i18n.t("compose.defaultUsed", {
          value: props.formatValue ? props.formatValue(fallback) : numberText(fallback),
        })
      : null;
  return [props.hint, defaultUsed, range].filter(Boolean).join(" · ");
}

function ErrorText(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <span class="error" id={props.id}>
      {props.error}
    </span>
  ) : null;
}

/** An on/off field: a checkbox inside its label. */
function CheckField(props: { field: FieldProps; common: Common; errorId: string }) {
  const { name, value, error } = props.field;
  return (
    <div class="field">
      <label class="check" for={props.common.id}>
        <input
          {...props.common}
          type="checkbox"
          checked={value === true || value === "true"}
          onChange={(e) => {
            props.field.onChange(name, e.currentTarget.checked);
          }}
        />
        {fieldLabel(name)}
      </label>
      <ErrorText id={props.errorId} error={error} />
    </div>
  );
}

function OptionSelect(props: { field: FieldProps; common: Common; spec: MusicFieldSpec }) {
  const { name, value } = props.field;
  return (
    <select
      {...props.common}
      value={String(value)}
      disabled={(props.spec.options?.length ?? 0) < 2}
      onChange={(e) => {
        props.field.onChange(name, text(e));
      }}
    >
      {props.spec.options?.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}

function TextBox(props: { field: FieldProps; common: Common; spec: MusicFieldSpec }) {
  const { name, value } = props.field;
  return (
    <textarea
      {...props.common}
      class={name === "lyrics" ? "lyrics" : undefined}
      value={String(value)}
      required={props.spec.required}
      onInput={(e) => {
        props.field.onChange(name, text(e));
      }}
    />
  );
}

/** A number (or list of numbers) box; with `slider`, a range beside it that the keyboard skips. */
function NumberBox(props: { field: FieldProps; common: Common; spec: MusicFieldSpec }) {
  const { field, spec } = props;
  const { name, value } = field;
  const fallback = numberDefault(name);
  const box = (
    <input
      {...props.common}
      type={spec.kind === "integer-list" ? "text" : "number"}
      inputMode={spec.kind === "integer-list" ? "text" : "decimal"}
      min={spec.min}
      max={spec.max}
      step={spec.step}
      placeholder={fallback === null ? undefined : String(fallback)}
      value={String(value)}
      onInput={(e) => {
        field.onChange(name, text(e));
      }}
    />
  );
  if (!field.slider) return box;
  return (
    <div class="number-pair">
      <input
        type="range"
        aria-hidden="true"
        tabIndex={-1}
        min={spec.min}
        max={spec.max}
        step={spec.step}
        value={Number(value) || Number(spec.default)}
        onInput={(e) => {
          field.onChange(name, Number(text(e)));
        }}
      />
      {box}
    </div>
  );
}

/** One control of the music form, chosen by the field's kind in core's MUSIC_FIELDS. */
export function Field(props: FieldProps) {
  const { name, value, error } = props;
  const spec = MUSIC_FIELDS[name];
  const id = `field-${name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const countId = `${id}-count`;
  const hint = hintOf(props, spec);
  const length =
    spec.kind === "text" && spec.maxLength !== undefined
      ? { count: sentLength(name, value), max: spec.maxLength }
      : null;
  const over = length !== null && length.count > length.max;
  const describedBy =
    [hint ? hintId : "", length ? countId : "", error ? errorId : ""].filter(Boolean).join(" ") ||
    undefined;
  const common: Common = {
    id,
    name,
    "aria-invalid": error || over ? "true" : undefined,
    "aria-describedby": describedBy,
    onBlur: () => {
      props.onBlur(name);
    },
  };
  if (spec.kind === "boolean")
    return <CheckField field={props} common={common} errorId={errorId} />;
  const Control =
    spec.kind === "option" ? OptionSelect : spec.kind === "text" ? TextBox : NumberBox;
  return (
    <div class="field">
      <label for={id}>{fieldLabel(name)}</label>
      <Control field={props} common={common} spec={spec} />
      {length ? <CharCount id={countId} count={length.count} max={length.max} /> : null}
      {hint ? (
        <span class="hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <ErrorText id={errorId} error={error} />
    </div>
  );
}
