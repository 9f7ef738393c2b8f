import { i18n } from "../../lib/shared/i18n.ts";
import { numberText } from "../../lib/views/texts.ts";

/**
 * How many characters a text field holds against its limit ("1,204 / 4,000"), and by how much it
 * is over. Over the limit the text stays whole (no `maxlength` cuts a paste); core refuses it at
 * submit and the form names the field.
 */
export function CharCount(props: { id: string; count: number; max: number }) {
  const { count, max } = props;
  const over = count - max;
  return (
    <span class="char-count" id={props.id} data-over={over > 0 ? "true" : undefined}>
      {i18n.t("compose.count", { count: numberText(count), max: numberText(max) })}
      {over > 0 ? ` · ${i18n.t("compose.over", { count: numberText(over) })}` : null}
    </span>
  );
}
