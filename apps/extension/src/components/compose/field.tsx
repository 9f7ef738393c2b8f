import { i18n } from "../../lib/shared/i18n.ts";
import { MUSIC_FIELDS } from "@overture/core/music";
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

/** One control of the music form, chosen by the field's kind in core's MUSIC_FIELDS. */
export function Field(props: FieldProps) {
  const { name, value, error } = props;
  const spec = MUSIC_FIELDS[name];
  const id = `field-${name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const range =
    spec.min !== undefined && spec.max !== undefined
      ? i18n.t("compose.range", { min: spec.min, max: spec.max })
      : null;
  // An empty number box stands for the field's default (core fills it in): it says so, as a
  // placeholder and in the hint, rather than sending a value the person never saw.
  const fallback = numberDefault(name);
  const defaultUsed =
    fallback !== null && isBlank(value)
      ? i18n.t("compose.defaultUsed", {
          value: props.formatValue ? props.formatValue(fallback) : numberText(fallback),
        })
      : null;
  const hint = [props.hint, defaultUsed, range].filter(Boolean).join(" · ");
  const countId = `${id}-count`;
  const length =
    spec.kind === "text" && spec.maxLength !== undefined
      ? { count: sentLength(name, value), max: spec.maxLength }
      : null;
  const over = length !== null && length.count > length.max;
  const describedBy =
    [hint ? hintId : "", length ? countId : "", error ? errorId : ""].filter(Boolean).join(" ") ||
    undefined;
  const common = {
    id,
    name,
    "aria-invalid": error || over ? ("true" as const) : undefined,
    "aria-describedby": describedBy,
    onBlur: () => {
      props.onBlur(name);
    },
  };
  const text = (event: Event) => (event.currentTarget as HTMLInputElement).value;

  if (spec.kind === "boolean") {
    return (
      <div class="field">
        <label class="check" for={id}>
          <input
            {...common}
            type="checkbox"
            checked={value === true || value === "true"}
            onChange={(e) => {
              props.onChange(name, e.currentTarget.checked);
            }}
          />
          {fieldLabel(name)}
        </label>
        {error ? (
          <span class="error" id={errorId}>
            {error}
          </span>
        ) : null}
      </div>
    );
  }

  let control;
  if (spec.kind === "option") {
    control = (
      <select
        {...common}
        value={String(value)}
        disabled={(spec.options?.length ?? 0) < 2}
        onChange={(e) => {
          props.onChange(name, text(e));
        }}
      >
        {spec.options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else if (spec.kind === "text") {
    control = (
      <textarea
        {...common}
        class={name === "lyrics" ? "lyrics" : undefined}
        value={String(value)}
        required={spec.required}
        onInput={(e) => {
          props.onChange(name, text(e));
        }}
      />
    );
  } else {
    const box = (
      <input
        {...common}
        type={spec.kind === "integer-list" ? "text" : "number"}
        inputMode={spec.kind === "integer-list" ? "text" : "decimal"}
        min={spec.min}
        max={spec.max}
        step={spec.step}
        placeholder={fallback === null ? undefined : String(fallback)}
        value={String(value)}
        onInput={(e) => {
          props.onChange(name, text(e));
        }}
      />
    );
    control = props.slider ? (
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
            props.onChange(name, Number(text(e)));
          }}
        />
        {box}
      </div>
    ) : (
      box
    );
  }

  return (
    <div class="field">
      <label for={id}>{fieldLabel(name)}</label>
      {control}
      {length ? <CharCount id={countId} count={length.count} max={length.max} /> : null}
      {hint ? (
        <span class="hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span class="error" id={errorId}>
          {error}
        </span>
      ) : null}
    </div>
  );
}
