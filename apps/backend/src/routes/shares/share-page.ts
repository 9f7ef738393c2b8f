import { html } from "hono/html";
import { htmlPage } from "../../lib/html-page.ts";
import type { PeaksJson } from "../../schemas/archive.ts";
import { defaultTitle } from "../../services/tasks/title.ts";
import type { ShareTexts } from "./share-texts.ts";

/**
 * The share page's policy: no script at all (the waveform is inline SVG drawn here, the player
 * is the browser's own), media and the download only from this origin, never framed.
 */
export const SHARE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; media-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Columns of the drawn waveform at most. */
const COLUMNS = 480;

/** The peaks as one SVG path of vertical bars, on a 0–100 high canvas (numbers only: no escaping needed). */
export function waveformPath(peaks: PeaksJson | undefined): { width: number; d: string } {
  if (!peaks || peaks.length === 0) return { width: 1, d: "" };
  const step = Math.max(1, Math.ceil(peaks.length / COLUMNS));
  const parts: string[] = [];
  let x = 0;
  for (let i = 0; i < peaks.length; i += step, x += 1) {
    let min = 0;
    let max = 0;
    for (let j = i; j < Math.min(i + step, peaks.length); j += 1) {
      min = Math.min(min, peaks.data[2 * j] ?? 0);
      max = Math.max(max, peaks.data[2 * j + 1] ?? 0);
    }
    const top = 50 - (max / 128) * 50;
    const bottom = 50 - (min / 128) * 50;
    parts.push(`M${x}.5 ${top.toFixed(1)}V${Math.max(bottom, top + 0.5).toFixed(1)}`);
  }
  return { width: x, d: parts.join("") };
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.5rem; margin-bottom: 1rem; word-break: break-word; }
  svg { width: 100%; height: 96px; display: block; background: #f4f4f6; border-radius: 8px; }
  path { stroke: #5b4bdb; stroke-width: 1; }
  audio { width: 100%; margin: 1rem 0; }
  a.download { display: inline-block; padding: .4rem .9rem; border-radius: 6px; background: #5b4bdb; color: #fff; text-decoration: none; }
  pre { white-space: pre-wrap; background: #f4f4f6; padding: .75rem; border-radius: 6px; }
  footer { margin-top: 2rem; color: #777; font-size: .85rem; }
`;

const shell = (t: ShareTexts, title: string, body: unknown) =>
  htmlPage({
    lang: t.lang,
    title: `${title} · Overture`,
    style: STYLE,
    body: html`${body}
      <footer>${t.footer}</footer>`,
  });

/**
 * The title a visitor sees. A track never renamed is titled with its prompt's first line
 * (`defaultTitle`): shown only when the owner chose to show the prompt, else a neutral name.
 */
export function publicTitle(
  task: { title: string; params: Record<string, unknown> },
  includeText: boolean,
  t: ShareTexts,
): string {
  return includeText || task.title !== defaultTitle(task.params.prompt) ? task.title : t.unnamed;
}

export interface SharePageView {
  texts: ShareTexts;
  token: string;
  title: string;
  peaks: PeaksJson | undefined;
  /** Only when the owner chose to show them. */
  text?: { prompt: string; lyrics: string };
}

/** The public page of one shared track. Every value is escaped by `hono/html`. */
export function sharePage(view: SharePageView) {
  const base = `/s/${view.token}`;
  const wave = waveformPath(view.peaks);
  const t = view.texts;
  return shell(
    t,
    view.title,
    html`<h1>${view.title}</h1>
      <svg
        viewBox="0 0 ${wave.width} 100"
        preserveAspectRatio="none"
        role="img"
        aria-label="${t.waveform}"
      >
        <path d="${wave.d}" />
      </svg>
      <audio controls preload="metadata" src="${base}/audio"></audio>
      <p><a class="download" href="${base}/audio?download=1" download>${t.download}</a></p>
      ${
        view.text?.prompt
          ? html`<h2>${t.prompt}</h2>
              <p>${view.text.prompt}</p>`
          : ""
      }
      ${
        view.text?.lyrics
          ? html`<h2>${t.lyrics}</h2>
              <pre>${view.text.lyrics}</pre>`
          : ""
      }`,
  );
}

/** What a visitor sees for a link that is unknown (404), or revoked or expired (410). */
export function shareGonePage(t: ShareTexts, status: 404 | 410) {
  return shell(
    t,
    t.goneTitle,
    html`<h1>${t.goneTitle}</h1>
      <p>${status === 410 ? t.gone : t.notFound}</p>`,
  );
}
