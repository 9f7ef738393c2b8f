import { weightedEntries } from "../../lib/weighted-header.ts";

/**
 * The public share page's words in the two languages the extension speaks. The visitor has no
 * account and no settings, so the page follows their browser's Accept-Language.
 */
export const SHARE_TEXTS = {
  en: {
    lang: "en",
    waveform: "Waveform",
    download: "Download MP3",
    prompt: "Prompt",
    lyrics: "Lyrics",
    footer: "Shared with Overture.",
    unnamed: "Shared track",
    goneTitle: "Not available",
    notFound: "No shared track at this address.",
    gone: "This share link has been revoked or has expired.",
  },
  zh: {
    lang: "zh-CN",
    waveform: "波形",
    download: "下载 MP3",
    prompt: "提示词",
    lyrics: "歌词",
    footer: "通过 Overture 分享。",
    unnamed: "分享的曲目",
    goneTitle: "无法访问",
    notFound: "此地址没有分享的曲目。",
    gone: "此分享链接已被撤销或已过期。",
  },
} as const;

export type ShareTexts = (typeof SHARE_TEXTS)[keyof typeof SHARE_TEXTS];

/**
 * The page's language from an Accept-Language header: Chinese when a `zh` range is preferred
 * over every English one (by q, then by order), English otherwise.
 */
export function shareTexts(acceptLanguage: string | undefined): ShareTexts {
  let best: { lang: "en" | "zh"; q: number } | null = null;
  for (const { value: range, q } of weightedEntries(acceptLanguage)) {
    const lang =
      range === "zh" || range.startsWith("zh-") ? "zh" : range.startsWith("en") ? "en" : null;
    if (lang && q > 0 && (best === null || q > best.q)) best = { lang, q };
  }
  return SHARE_TEXTS[best?.lang ?? "en"];
}
