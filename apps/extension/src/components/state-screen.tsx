import { i18n } from "../lib/shared/i18n.ts";
import { useState } from "preact/hooks";
import { browser } from "wxt/browser";
import { send } from "../lib/shared/messages.ts";
import type { SignInProblem } from "../lib/shared/snapshot.ts";
import { rateLimitedText } from "../lib/views/wait-text.ts";

/** The screens that replace the app when there is nothing else to show. */
export type Screen = "signed_out" | "revoked" | "expired" | "unreachable";

/** Whole seconds from `now` until `at`, rounded up; none when unknown or already past. */
function secondsUntil(at: number | null, now: number): number | undefined {
  return at !== null && at > now ? Math.ceil((at - now) / 1000) : undefined;
}

const PROBLEM_TEXT: Record<SignInProblem, (retryAt: number | null) => string> = {
  denied: () => i18n.t("state.deniedBody"),
  cancelled: () => i18n.t("state.cancelledBody"),
  redirect_refused: () => i18n.t("state.redirectRefusedBody"),
  failed: () => i18n.t("state.failedBody"),
  unreachable: () => i18n.t("errors.backend_unreachable"),
  // What is left of the wait when the screen shows, in the words compose uses; not a countdown,
  // which would make the alert speak every second.
  rate_limited: (retryAt) => rateLimitedText(secondsUntil(retryAt, Date.now())),
};

/** The sign-in button; the flow runs in the background, which survives the popup closing. */
export function SignInButton(props: { again?: boolean }) {
  const [busy, setBusy] = useState(false);
  // The outcome (denied, cancelled, unreachable) arrives through the snapshot, which outlives
  // this popup: it closes when the sign-in window opens.
  const start = () => {
    setBusy(true);
    send("auth/sign-in")
      .catch(() => undefined)
      .finally(() => {
        setBusy(false);
      });
  };
  return (
    <>
      <button type="button" class="primary" onClick={start} disabled={busy}>
        {props.again ? i18n.t("state.signInAgain") : i18n.t("state.signIn")}
      </button>
      {busy ? (
        <p class="muted small" role="status">
          {i18n.t("state.signingIn")}
        </p>
      ) : null}
    </>
  );
}

/** What an operator needs to act on a sign-in that failed for a configuration reason. */
function ProblemDetail(props: { problem: SignInProblem }) {
  if (props.problem === "redirect_refused")
    return <code data-testid="refused-redirect">{browser.identity.getRedirectURL()}</code>;
  if (props.problem === "cancelled") return <p class="small">{i18n.t("state.cancelledHint")}</p>;
  return null;
}

export function StateScreen(props: {
  screen: Screen;
  problem?: SignInProblem | null;
  /** When a rate-limited sign-in may be tried again (the snapshot's `signInRetryAt`). */
  retryAt?: number | null;
  backendUrl?: string;
  onRetry?: () => void;
}) {
  const { screen } = props;
  const title =
    screen === "signed_out"
      ? i18n.t("state.signedOutTitle")
      : screen === "revoked"
        ? i18n.t("state.revokedTitle")
        : screen === "expired"
          ? i18n.t("state.expiredTitle")
          : i18n.t("state.unreachableTitle");
  const body =
    screen === "signed_out"
      ? i18n.t("state.signedOutBody")
      : screen === "revoked"
        ? i18n.t("state.revokedBody")
        : screen === "expired"
          ? i18n.t("state.expiredBody")
          : i18n.t("state.unreachableBody", { url: props.backendUrl ?? "" });
  return (
    <section class="state" aria-labelledby="state-title" data-screen={screen}>
      <h2 id="state-title">{title}</h2>
      <p>{body}</p>
      {props.problem && screen !== "unreachable" ? (
        <div class="banner warn stack" role="alert" data-problem={props.problem}>
          <p>{PROBLEM_TEXT[props.problem](props.retryAt ?? null)}</p>
          <ProblemDetail problem={props.problem} />
        </div>
      ) : null}
      {screen === "unreachable" ? (
        <div class="row">
          <button type="button" class="primary" onClick={props.onRetry}>
            {i18n.t("state.retry")}
          </button>
          <button type="button" onClick={() => void browser.runtime.openOptionsPage()}>
            {i18n.t("state.openSettings")}
          </button>
        </div>
      ) : (
        <SignInButton again={screen !== "signed_out"} />
      )}
    </section>
  );
}

/** A strip above the content when offline: the content stays (last known state). */
export function OfflineBanner() {
  return (
    <div class="banner warn" role="status" data-screen="offline">
      <strong>{i18n.t("state.offlineTitle")}</strong>
      <p class="small">{i18n.t("state.offlineBody")}</p>
    </div>
  );
}
