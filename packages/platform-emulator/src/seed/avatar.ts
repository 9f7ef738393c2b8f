import { hash32 } from "../util/random.ts";

/** An SVG avatar with the name's initials as a data: URL, so nothing needs the network. */
export function initialsAvatar(name: string): string {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w.charAt(0).toUpperCase())
      .join("") || "?";
  const hue = hash32(name) % 360;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<rect width="96" height="96" rx="48" fill="hsl(${hue} 55% 45%)"/>` +
    `<text x="48" y="50" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" ` +
    `font-size="38" font-weight="600" fill="#fff">${escapeXml(initials)}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
