import { useEffect, useState } from "preact/hooks";
import { i18n, uiLanguage } from "../../lib/shared/i18n.ts";
import { send } from "../../lib/shared/messages.ts";
import { taskTitle } from "../../lib/shared/format.ts";
import { SHARE_EXPIRY_CHOICES } from "../../lib/views/share-expiry.ts";
import { errorText } from "../../lib/views/texts.ts";
import type { Share, ShareExpiry, Task } from "../../lib/shared/types.ts";

/** A link's state in words: active until when, expired, or revoked. */
function shareState(share: Share): string {
  if (share.status === "revoked") return i18n.t("share.revoked");
  if (share.status === "expired") return i18n.t("share.expired");
  return share.expires_at
    ? i18n.t("share.activeUntil", { date: new Date(share.expires_at).toLocaleString(uiLanguage()) })
    : i18n.t("share.activeForever");
}

/** A link as its row shows it: its state, and whether it shows the prompt and lyrics. */
function shareLine(share: Share): string {
  return share.include_text
    ? `${shareState(share)} · ${i18n.t("share.withText")}`
    : shareState(share);
}

/**
 * Sharing one track: a new public link (expiry, with or without prompt and lyrics), shown once
 * to copy; and the track's links, each revocable while active.
 */
export function SharePanel(props: { task: Task }) {
  const { task } = props;
  // Names carry the title, as every card's controls do: a screen reader's list of buttons
  // tells one card's from the next. A revoke names its link too: a track may have several.
  const title = taskTitle(task);
  const [expiry, setExpiry] = useState<ShareExpiry>("7d");
  const [includeText, setIncludeText] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [shares, setShares] = useState<Share[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const fail = (error: unknown) => {
    setProblem(errorText(error));
  };
  const reload = () => send("shares/list", { id: task.id }).then(setShares, fail);
  useEffect(() => {
    void reload();
  }, [task.id]);

  const create = () => {
    setBusy(true);
    setProblem(null);
    setCopied(false);
    send("shares/create", { id: task.id, expires_in: expiry, include_text: includeText })
      .then((share) => {
        setCreated(share.url);
        return reload();
      })
      .catch(fail)
      .finally(() => {
        setBusy(false);
      });
  };
  const revoke = (share: Share) => {
    setProblem(null);
    send("shares/revoke", { shareId: share.id })
      .then((revoked) => {
        setShares((list) => list.map((s) => (s.id === revoked.id ? revoked : s)));
      })
      .catch(fail);
  };
  const copy = (url: string) => {
    navigator.clipboard.writeText(url).then(() => {
      setCopied(true);
    }, fail);
  };

  return (
    <div class="stack share" data-testid="share-panel">
      <div class="row">
        <select
          aria-label={i18n.t("share.expiry")}
          value={expiry}
          onChange={(event) => {
            const choice = SHARE_EXPIRY_CHOICES.find((e) => e === event.currentTarget.value);
            if (choice) setExpiry(choice);
          }}
        >
          {SHARE_EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {i18n.t(`share.expiries.${choice}`)}
            </option>
          ))}
        </select>
        <label class="check">
          <input
            type="checkbox"
            checked={includeText}
            onChange={(event) => {
              setIncludeText(event.currentTarget.checked);
            }}
          />
          {i18n.t("share.includeText")}
        </label>
        <button
          type="button"
          data-testid="create-share"
          aria-label={i18n.t("share.createTrack", { title })}
          onClick={create}
          disabled={busy}
        >
          {i18n.t("share.create")}
        </button>
      </div>
      {created ? (
        <div class="stack share-made">
          <p class="share-url">
            <span class="visually-hidden">{i18n.t("share.link")}: </span>
            <code data-testid="share-url">{created}</code>
          </p>
          <button
            type="button"
            aria-label={
              copied ? i18n.t("share.copiedTrack", { title }) : i18n.t("share.copyTrack", { title })
            }
            onClick={() => {
              copy(created);
            }}
          >
            {copied ? i18n.t("share.copied") : i18n.t("share.copy")}
          </button>
        </div>
      ) : null}
      {shares.length > 0 ? (
        <ul class="share-list" aria-label={i18n.t("share.links")}>
          {shares.map((share) => (
            <li key={share.id} class="row spread" data-share-id={share.id}>
              <span class="small">{shareLine(share)}</span>
              {share.status === "active" ? (
                <button
                  type="button"
                  class="danger"
                  aria-label={i18n.t("share.revokeTrack", { title, link: shareLine(share) })}
                  onClick={() => {
                    revoke(share);
                  }}
                >
                  {i18n.t("share.revoke")}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p class="small" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
