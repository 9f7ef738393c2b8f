/**
 * A value as an SQL literal, for statements sent as text (a multi-statement script takes no
 * parameters): strings always quoted ({@link dollarQuote}), never spliced raw; dates as ISO
 * text; objects as JSON text.
 */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return quote(value.toISOString());
  if (typeof value === "string") return dollarQuote(value);
  return dollarQuote(JSON.stringify(value));
}

const DOLLAR_TAG = "$ov$";

/**
 * A string as a dollar-quoted literal (` $ov$text$ov$`): Postgres reads everything up to the
 * closing tag as it is, so nothing is escaped and the text is not copied. The intake's JSON
 * batches hold backslashes (every `\n` of a lyric), which {@link quote} doubles in a full copy
 * of each batch. Text holding `$ov` (the tag, or its start just before the closing tag) is
 * quoted the usual way instead. The leading space keeps the tag from joining a word before it.
 */
export function dollarQuote(text: string): string {
  return text.includes("$ov") ? quote(text) : ` ${DOLLAR_TAG}${text}${DOLLAR_TAG}`;
}

/**
 * A string as an SQL literal, exactly as node-postgres' `escapeLiteral` writes it (quotes
 * doubled; with a backslash, an E'' literal with backslashes doubled), by native string search
 * and replace instead of its character-by-character loop: the intake's JSON batches are most of
 * a script's text.
 */
export function quote(text: string): string {
  if (!text.includes("\\")) return `'${text.replaceAll("'", "''")}'`;
  return ` E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * A statement of ours with `$n` placeholders and their values. It runs as text with the values
 * inlined ({@link inlined}: drizzle's `sql.raw`, or a script), or, in a script, as an EXECUTE of
 * the same text prepared once per connection ({@link prepareText}, {@link executeText}), which
 * saves Postgres parsing and planning it for every batch.
 * `name` is the same for the same text (an identifier). Every parameter carries an explicit
 * cast in `text`, so PREPARE knows its type.
 */
/**
 * A Postgres array literal of values that never need quoting (uuids, hex digests, integers), for
 * a parameter cast to an array type (`$1::uuid[]`). Anything else must go through {@link quote}.
 */
export const arrayLiteral = (values: readonly (string | number)[]): string =>
  `{${values.join(",")}}`;

export interface Statement {
  name: string;
  text: string;
  params: readonly unknown[];
}

/** A statement's name: `prefix` and a hash of its text (FNV-1a), so shapes never share one. */
export function statementName(prefix: string, text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${prefix}_${(hash >>> 0).toString(36)}`;
}

/**
 * The statement as text with each value inlined as a literal. Only `text` is scanned for
 * placeholders, and it is ours (never holds a value), so a value's `$2` is never read as one.
 */
export function inlined(statement: Statement): string {
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= statement.params.length) throw new Error(`no parameter $${n}`);
    return literal(statement.params[index]);
  });
}

export const prepareText = (statement: Statement) =>
  `prepare ${statement.name} as ${statement.text}`;

export const executeText = (statement: Statement) =>
  `execute ${statement.name}(${statement.params.map(literal).join(", ")})`;
