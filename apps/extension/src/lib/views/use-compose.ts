import { type MusicFieldError, validateMusicParams } from "@overture/core/music";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { FieldProblem } from "../shared/errors.ts";
import {
  FORM_ORDER,
  type FieldName,
  type FormValues,
  type Preset,
  applyPreset,
  errorsByField,
  initialValues,
  toPayload,
} from "./music-form.ts";
import { type DraftValue, composeDraftItem } from "../shared/storage.ts";
import { fieldErrorText } from "./texts.ts";

const SAVE_DELAY_MS = 300;

/**
 * State of the compose form: values (from the remembered draft), core's validation on every
 * change, messages for touched fields (all of them after a submit attempt), problems the backend
 * reported, and the draft saved shortly after each change.
 */
export function useCompose() {
  const [values, setValues] = useState<FormValues | null>(null);
  const [preset, setPreset] = useState<string | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, FieldProblem>>>({});
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    composeDraftItem
      .getValue()
      .then((draft) => {
        setValues(initialValues(draft.values));
        setPreset(draft.preset);
      })
      // A draft that cannot be migrated is left in storage untouched; the form starts fresh.
      .catch(() => {
        setValues(initialValues({}));
      });
    return () => {
      clearTimeout(saveTimer.current);
    };
  }, []);

  const save = (next: FormValues, nextPreset: string | null) => {
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(
      () =>
        void composeDraftItem.setValue({ values: next, preset: nextPreset }).catch(() => undefined),
      SAVE_DELAY_MS,
    );
  };

  const validation = useMemo(
    () => (values ? validateMusicParams(toPayload(values)) : null),
    [values],
  );
  const clientErrors = validation && !validation.ok ? errorsByField(validation.errors) : {};

  function messageFor(name: FieldName): string | undefined {
    const problem: MusicFieldError | FieldProblem | undefined =
      clientErrors[name] ?? serverErrors[name];
    if (!problem || !(attempted || touched.has(name) || serverErrors[name])) return undefined;
    return fieldErrorText(problem);
  }

  return {
    values,
    preset,
    valid: validation?.ok ?? false,
    messageFor,
    /** Fields core or the backend refused, in the order the form shows them. */
    invalidFields: (): FieldName[] =>
      FORM_ORDER.filter((name) => clientErrors[name] ?? serverErrors[name]),
    change: (name: FieldName, value: DraftValue) => {
      if (!values) return;
      const next = { ...values, [name]: value };
      setValues(next);
      setServerErrors(({ [name]: _, ...rest }) => rest);
      save(next, preset);
    },
    blur: (name: FieldName) => {
      setTouched((set) => new Set(set).add(name));
    },
    usePreset: (chosen: Preset) => {
      const next = applyPreset(chosen);
      setValues(next);
      setPreset(chosen.id);
      setServerErrors({});
      save(next, chosen.id);
    },
    reset: () => {
      const next = initialValues({});
      setValues(next);
      setPreset(null);
      setTouched(new Set());
      setAttempted(false);
      setServerErrors({});
      save(next, null);
    },
    /** Marks every field as shown; answers the payload when core accepts it. */
    attempt: (): Record<string, unknown> | null => {
      setAttempted(true);
      return validation?.ok && values ? toPayload(values) : null;
    },
    /** Shows the backend's refusals; answers the refused fields in the form's order. */
    showServerErrors: (fields: readonly FieldProblem[]): FieldName[] => {
      const byField: Partial<Record<string, FieldProblem>> = {};
      for (const field of fields) byField[field.field] ??= field;
      setServerErrors(byField);
      return FORM_ORDER.filter((name) => byField[name]);
    },
  };
}
