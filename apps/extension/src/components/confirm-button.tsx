import { useEffect, useRef, useState } from "preact/hooks";

/**
 * A button for something hard to undo (signing out, removing a secret): the first click asks,
 * in place, and only the confirm button acts. In place rather than `window.confirm`, which a
 * popup cannot rely on. Focus moves to the confirm button, and back when the person keeps things.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  keepLabel: string;
  /**
   * The trigger's accessible name when `label` alone is ambiguous (one per list item, say); it
   * should start with `label`, so what is seen is what voice control and screen readers hear.
   */
  ariaLabel?: string | undefined;
  onConfirm: () => void;
  /** Style the first button as dangerous too (the confirm button always is). */
  danger?: boolean;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (returnFocus) trigger.current?.focus();
  }, [asking]);

  if (!asking)
    return (
      <button
        type="button"
        class={props.danger ? "danger" : undefined}
        ref={trigger}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        onClick={() => {
          setAsking(true);
        }}
      >
        {props.label}
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={props.question}>
      <span class="small">{props.question}</span>
      <button
        type="button"
        class="danger"
        ref={confirm}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        onClick={() => {
          setReturnFocus(true);
          setAsking(false);
        }}
      >
        {props.keepLabel}
      </button>
    </span>
  );
}
