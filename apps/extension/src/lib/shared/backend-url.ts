/**
 * The backend address as the person types it: only http(s), reduced to its origin (a path,
 * query or fragment would be dropped silently otherwise). Returns null when unusable.
 */
export function parseBackendUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  return url.origin;
}

/**
 * The host permission pattern for an origin. Match patterns ignore ports, so the pattern covers
 * every port of the host.
 */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
