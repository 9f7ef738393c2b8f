/** A string that is already safe HTML. */
export interface SafeHtml {
  readonly __html: string;
}

export const raw = (html: string): SafeHtml => ({ __html: html });

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Value = SafeHtml | string | number | readonly (SafeHtml | string)[] | undefined | null | false;

function render(value: Value): string {
  if (value === undefined || value === null || value === false) return "";
  if (Array.isArray(value)) return value.map((v: SafeHtml | string) => render(v)).join("");
  if (typeof value === "object") return (value as SafeHtml).__html;
  return escapeHtml(String(value));
}

/** Tagged template that escapes every interpolated value unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((v, i) => (out += render(v) + (strings[i + 1] ?? "")));
  return raw(out);
}

/** Only http(s) URLs become links; anything else (javascript:, data:) is shown as text. */
export function safeHref(url: string): string | undefined {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
