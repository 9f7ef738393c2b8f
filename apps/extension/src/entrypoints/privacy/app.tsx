import { uiLanguage } from "../../lib/shared/i18n.ts";
import { renderMarkdown } from "../../lib/views/markdown.tsx";
// The repository's privacy policy is the one source: the page shows the same files.
import english from "../../../docs/privacy.md?raw";
import chinese from "../../../docs/privacy.zh-CN.md?raw";

/** The privacy policy, in the language the extension speaks (Chinese or English). */
export function PrivacyPage() {
  const text = uiLanguage().toLowerCase().startsWith("zh") ? chinese : english;
  return <main class="page prose">{renderMarkdown(text)}</main>;
}
