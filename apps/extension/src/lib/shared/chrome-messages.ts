// No browser import here: the tests' setup loads this before the fake browser exists.

/** A locale's `messages.json`. */
export type Messages = Record<string, { message: string }>;
export type Lookup = (key: string, substitutions?: string[]) => string;

/** Chrome's getMessage over a messages.json: `$1`…`$9`, `$$` for a dollar sign, "" if missing. */
export function chromeGetMessage(messages: Messages): Lookup {
  return (key, substitutions = []) => {
    const entry = messages[key];
    if (!entry) return "";
    return entry.message.replace(/\$(\$|[1-9])/g, (_, what: string) =>
      what === "$" ? "$" : (substitutions[Number(what) - 1] ?? ""),
    );
  };
}
