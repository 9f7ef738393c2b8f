import type { Context, Next } from "hono";

export type HeaderList = readonly (readonly [string, string])[];

/**
 * Runs `next` with `headers` set on the response. They are set before the handler runs, so
 * `c.json()` and friends build the response with them: set afterwards, Hono copies the finished
 * response once per header, on every request. A handler that returns its own `Response` does
 * not carry prepared headers; those get them after.
 */
export async function withHeaders(c: Context, headers: HeaderList, next: Next): Promise<void> {
  for (const [name, value] of headers) c.header(name, value);
  await next();
  const [first] = headers;
  if (first && !c.res.headers.has(first[0])) {
    for (const [name, value] of headers) c.header(name, value);
  }
}
