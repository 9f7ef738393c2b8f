/**
 * A device's browser and system from its user-agent string, for display only ("Chrome 156 on
 * Linux"); nothing decides anything from it. Order matters: Edge, Opera and Samsung Internet also
 * say "Chrome", Chrome also says "Safari", Android also says "Linux", iOS also says "Mac OS X".
 */
export interface DeviceDescription {
  browser: string | null;
  /** Major version. */
  version: string | null;
  os: string | null;
}

const BROWSERS: readonly [name: string, pattern: RegExp][] = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ["Opera", /\b(?:OPR|Opera)\/(\d+)/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /\b(?:Chrome|HeadlessChrome|CriOS|Chromium)\/(\d+)/],
  ["Safari", /\bVersion\/(\d+)(?:[.\d]*)? (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: readonly [name: string, pattern: RegExp][] = [
  ["Android", /\bAndroid\b/],
  ["iOS", /\b(?:iPhone|iPad|iPod)\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["Windows", /\bWindows\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["Linux", /\bLinux\b/],
];

export function describeUserAgent(ua: string | null | undefined): DeviceDescription {
  const text = ua ?? "";
  let browser: string | null = null;
  let version: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(text);
    if (match) {
      browser = name;
      version = match[1] ?? null;
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
  return { browser, version, os };
}
