import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { INVALID_REQUEST } from "../schemas/error-codes.ts";
import { isStorableText } from "../schemas/common.ts";

/** The names of the query's parameters that are not percent-encoded text Postgres can hold. */
function badParameters(search: string): string[] {
  const bad = new Set<string>();
  for (const pair of search.split("&")) {
    if (!pair) continue;
    const separator = pair.indexOf("=");
    const [rawName, rawValue] =
      separator < 0 ? [pair, ""] : [pair.slice(0, separator), pair.slice(separator + 1)];
    const decode = (text: string) => decodeURIComponent(text.replaceAll("+", " "));
    let name = rawName;
    try {
      name = decode(rawName);
      if (isStorableText(name) && isStorableText(decode(rawValue))) continue;
    } catch {
      // Not UTF-8 once decoded (%FF, an encoded surrogate %ED%A0%80, an overlong %C0%80).
    }
    bad.add(isStorableText(name) ? name : rawName);
  }
  return [...bad];
}

/**
 * Refuses an API query that is not percent-encoded UTF-8, or that holds NUL: 400 naming the
 * parameters, as any other bad input. Hono decodes what it can and keeps an undecodable escape
 * as typed, so `q=%FF` would otherwise search for the three characters "%FF", and a NUL would
 * reach Postgres, which refuses it in `text` (a 500).
 */
export function queryText() {
  return createMiddleware<AppEnv>(async function queryTextMiddleware(c, next) {
    const url = c.req.url;
    const start = url.indexOf("?");
    const bad = start < 0 ? [] : badParameters(url.slice(start + 1).split("#")[0] ?? "");
    if (bad.length === 0) return next();
    const message = "is not percent-encoded UTF-8 text, or holds NUL";
    return c.json(
      {
        error: INVALID_REQUEST,
        message: `Invalid query: ${bad.map((name) => `${name}: ${message}`).join("; ")}`,
        fields: bad.map((field) => ({ field, message })),
      },
      400,
    );
  });
}
