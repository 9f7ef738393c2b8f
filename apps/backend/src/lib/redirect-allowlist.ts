/**
 * Whether `candidate` may receive the sign-in result (the extension's identity redirect URL).
 *
 * An entry matches when the candidate has the same origin (scheme, host, port) and the same path;
 * an entry ending in `*` matches any path that starts with the part before the `*`. Refused
 * always: a query or fragment, user info, and any URL that is not already in canonical form
 * (`new URL(x).href === x`), so dot segments, odd encodings or a missing slash cannot make a URL
 * look like an entry to this check and like another address to the browser.
 *
 * @example
 * isAllowedRedirect("https://abc.chromiumapp.org/", ["https://abc.chromiumapp.org/"]) // true
 * isAllowedRedirect("https://abc.chromiumapp.org/cb", ["https://abc.chromiumapp.org/*"]) // true
 * isAllowedRedirect("https://abc.chromiumapp.org.evil.test/", ["https://abc.chromiumapp.org/*"]) // false
 */
export function isAllowedRedirect(candidate: string, allowList: readonly string[]): boolean {
  const url = parseCanonical(candidate);
  if (!url || url.search || url.hash || candidate.includes("?") || candidate.includes("#"))
    return false;
  if (url.username || url.password || url.protocol !== "https:") return false;
  return allowList.some((entry) => {
    const prefix = entry.endsWith("*");
    const allowed = parseCanonical(prefix ? entry.slice(0, -1) : entry);
    if (allowed?.origin !== url.origin) return false;
    return prefix ? url.pathname.startsWith(allowed.pathname) : url.pathname === allowed.pathname;
  });
}

function parseCanonical(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.href === value ? url : undefined;
}
