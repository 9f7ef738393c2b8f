import { i18n } from "../../lib/shared/i18n.ts";
import { lyricSections } from "@overture/core/music";

/** The section tags core finds in the lyrics, in order, so the person sees the song's shape. */
export function LyricTags(props: { lyrics: string }) {
  const tags = lyricSections(props.lyrics);
  return (
    <div class="field" aria-live="polite">
      <span class="hint">{i18n.t("compose.tagsFound")}</span>
      {tags.length > 0 ? (
        <ol class="chips" data-testid="lyric-tags">
          {tags.map((tag, index) => (
            <li class="chip" key={`${index}-${tag}`}>
              {tag}
            </li>
          ))}
        </ol>
      ) : (
        <span class="hint">{i18n.t("compose.noTags")}</span>
      )}
    </div>
  );
}
