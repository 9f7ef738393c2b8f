/**
 * `base` (with or without a trailing slash, possibly with a path prefix) joined with a path
 * template whose `{}` placeholders are filled, percent-encoded, from `segments`: the
 * `{base_url}` and `{api_url}` addresses of spec 4.
 *
 * @example
 * ```ts
 * endpoint("https://api.test/", "/api/v1/task/{}", "t 1"); // "https://api.test/api/v1/task/t%201"
 * ```
 */
export function endpoint(base: string, path: string, ...segments: (string | number)[]): string {
  let index = 0;
  const filled = path.replace(/\{\}/g, () => encodeURIComponent(String(segments[index++] ?? "")));
  return `${base.replace(/\/+$/, "")}${filled}`;
}

/** `Authorization` header with a bearer token (spec 5). */
export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}
