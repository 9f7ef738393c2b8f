/**
 * Which hosts the backend may download from (the result archiver). Anyone who can sign webhooks
 * for an account chooses the `file_url` it fetches, so without a list the backend could be made to
 * send GET requests to internal addresses (SSRF).
 *
 * A URL is allowed when it is http(s) without user info and either has exactly one of `origins`
 * (scheme, host and port: the platform's own) or the host name of one of `hosts` on either
 * scheme, with that entry's port, or the scheme's default port when the entry names none.
 *
 * @example
 * const list = { origins: ["http://127.0.0.1:4010"], hosts: [parseHostEntry("cdn.example.com")!] };
 * isAllowedHost(new URL("https://cdn.example.com/a.wav"), list) // true
 * isAllowedHost(new URL("https://cdn.example.com:8443/a.wav"), list) // false: another port
 * isAllowedHost(new URL("http://169.254.169.254/latest"), list) // false
 */
export interface HostAllowList {
  origins: readonly string[];
  hosts: readonly HostEntry[];
}

export interface HostEntry {
  /** As `URL.hostname` writes it (lower case, punycode, IPv6 in brackets). */
  hostname: string;
  port?: number;
}

// A DNS name or a bracketed IPv6 address, then an optional port. No scheme, path or wildcard:
// an entry means exactly one host.
const ENTRY = /^(?<host>[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/i;

/** `host` or `host:port` as an entry, or undefined when it is not one (a URL, a wildcard, …). */
export function parseHostEntry(entry: string): HostEntry | undefined {
  const match = ENTRY.exec(entry);
  const host = match?.groups?.host;
  if (!host || !URL.canParse(`http://${host}`)) return undefined;
  // Written the way URL writes it, so "127.1" or "[::0:1]" compare equal to the URL's form.
  const hostname = new URL(`http://${host}`).hostname;
  const portText = match.groups?.port;
  if (portText === undefined) return { hostname };
  const port = Number(portText);
  return port >= 1 && port <= 65_535 ? { hostname, port } : undefined;
}

export function isAllowedHost(url: URL, list: HostAllowList): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (url.username || url.password) return false;
  if (list.origins.includes(url.origin)) return true;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  return list.hosts.some(
    (entry) =>
      entry.hostname === url.hostname &&
      (entry.port === undefined ? url.port === "" : entry.port === port),
  );
}
