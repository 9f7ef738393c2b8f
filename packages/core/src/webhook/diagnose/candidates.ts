import { queryOf } from "../canonical-query.ts";
import { signedReadings } from "../checks.ts";
import type { SignatureDiagnosisCode } from "../codes.ts";
import { signingMessage } from "../body.ts";
import { bodyVariants } from "./body-variants.ts";

/** What a diagnosis needs: the failed request and the caller's alternatives. */
export interface MismatchContext {
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string | Uint8Array;
  /** The query as given in the URL the receiver saw. */
  readonly query: string;
  readonly secrets: readonly string[];
  readonly formerSecrets: readonly (string | undefined)[];
  readonly alternateUrls: readonly (string | URL)[];
}

/**
 * One thing changed: if the HMAC of `signed` under `secret` equals the received signature, the
 * cause is `code`, explained by `message`.
 */
export interface MismatchCandidate {
  readonly code: SignatureDiagnosisCode;
  readonly message: string;
  readonly secret: string;
  readonly signed: string | Uint8Array;
}

/**
 * Every single change that would explain a mismatch (spec 7's common causes), most telling
 * first within each cause: a former secret, a whitespace-trimmed secret, another body
 * serialisation, an unsorted query, another URL. Messages name inputs by position
 * (`formerSecrets[0]`), never by value, and never hold a computed signature.
 */
export function mismatchCandidates(ctx: MismatchContext): MismatchCandidate[] {
  const candidates: MismatchCandidate[] = [];
  const readings = readingsOf(ctx.query);
  const add = (
    code: SignatureDiagnosisCode,
    message: (secretIndex: number) => string,
    secrets: readonly (string | undefined)[],
    canonicals: readonly string[],
    body = ctx.body,
  ): void => {
    for (const canonical of canonicals) {
      const signed = signingMessage(ctx.timestamp, canonical, body);
      for (const [i, secret] of secrets.entries()) {
        // An unset former secret (an empty environment variable) has nothing to explain.
        if (typeof secret === "string" && secret.trim() !== "") {
          candidates.push({ code, message: message(i), secret, signed });
        }
      }
    }
  };

  add(
    "FORMER_SECRET_MATCHES",
    (i) =>
      `the signature matches formerSecrets[${i}], an outdated secret: the request was signed before the secret reset, or the stored secret is not the one the platform uses (spec 5.8)`,
    ctx.formerSecrets,
    readings,
  );
  for (const [i, secret] of ctx.secrets.entries()) {
    const trimmed = secret.trim();
    if (trimmed === secret || trimmed === "") continue;
    const message = `secrets[${i}] has surrounding whitespace and the trimmed secret matches: remove the whitespace from the stored secret`;
    add("SECRET_WHITESPACE", () => message, [trimmed], readings);
  }
  for (const variant of bodyVariants(ctx.body)) {
    const message = `the signature matches the body ${variant.how}: verify the raw request body bytes, not a decoded, parsed or re-serialised body (spec 4.9 step 3)`;
    add("BODY_RESERIALISED", () => message, ctx.secrets, readings, variant.text);
  }
  for (const [how, canonical] of misorderedQueries(ctx.query, readings)) {
    const message = `the signature matches the query ${how}: the signer did not sort the query by code point, key then value (spec 4.9 rules 2-3)`;
    add("QUERY_UNSORTED_MATCHES", () => message, ctx.secrets, [canonical]);
  }
  for (const [i, url] of ctx.alternateUrls.entries()) {
    const alternate = readingsOf(queryOf(url)).filter((c) => !readings.includes(c));
    const message = `the signature matches alternateUrls[${i}]: verify with the URL the platform called, before any proxy rewrote it (spec 4.8)`;
    add("URL_MISMATCH", () => message, ctx.secrets, alternate);
  }
  if (ctx.query !== "" && !readings.includes("")) {
    const message =
      "the signature matches the URL without its query: the platform called a URL without this query (spec 4.9 rule 6)";
    add("URL_MISMATCH", () => message, ctx.secrets, [""]);
  }
  return candidates;
}

/** The signed query string in every reading the verifiers try, once each. */
function readingsOf(query: string): string[] {
  return signedReadings(query).map(({ canonical }) => canonical);
}

/** Orders a careless signer may have used instead of the code-point sort, with how. */
function misorderedQueries(query: string, readings: readonly string[]): [string, string][] {
  const q = query.startsWith("?") ? query.slice(1) : query;
  const pairs = q
    .split("&")
    .filter((segment) => segment !== "")
    .map((segment) => (segment.includes("=") ? segment : `${segment}=`));
  const candidates: [string, string][] = [
    ["as given, unsorted", q],
    ["in its given order with missing values filled in", pairs.join("&")],
    ["sorted by locale (localeCompare)", [...pairs].sort((a, b) => a.localeCompare(b)).join("&")],
  ];
  return candidates.filter(
    ([, c], i) => !readings.includes(c) && candidates.findIndex(([, d]) => d === c) === i,
  );
}
