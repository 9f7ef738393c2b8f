import { bodyVariants } from "./body-variants.ts";
import { canonicalQuery, queryOf } from "./canonical-query.ts";
import type { SignatureDiagnosis } from "./codes.ts";
import { constantTimeEqual } from "./compare.ts";
import { signingText } from "./sign.ts";
import type { HmacRequest, HmacSteps } from "./steps.ts";

/** What {@link diagnoseMismatch} needs: the failed request and the caller's alternatives. */
export interface MismatchContext {
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string;
  readonly query: string;
  readonly secrets: readonly string[];
  readonly formerSecrets: readonly string[];
  readonly alternateUrls: readonly (string | URL)[];
}

/**
 * Looks for the spec 7 cause of a signature mismatch by changing one thing at a time and checking
 * for a match: a former secret, a whitespace-trimmed secret, another body serialisation, an
 * unsorted query, another URL. At most one diagnosis per code. Messages name inputs by position
 * (`formerSecrets[0]`), never by value, and never contain a computed signature. A generator of
 * HMAC requests (see `steps.ts`), so the sync and async verifiers share it.
 */
export function* diagnoseMismatch(ctx: MismatchContext): HmacSteps<SignatureDiagnosis[]> {
  const found: SignatureDiagnosis[] = [];
  const readings = readingsOf(ctx.query);
  const matches = (secrets: readonly string[], canonicals: readonly string[], body = ctx.body) =>
    firstMatch(ctx, secrets, canonicals, body);

  const former = yield* matches(ctx.formerSecrets, readings);
  if (former !== -1) {
    found.push({
      code: "FORMER_SECRET_MATCHES",
      message: `the signature matches formerSecrets[${former}], an outdated secret: the request was signed before the secret reset, or the stored secret is not the one the platform uses (spec 5.8)`,
    });
  }

  for (const [i, secret] of ctx.secrets.entries()) {
    const trimmed = secret.trim();
    if (trimmed === secret || trimmed === "") continue;
    if ((yield* matches([trimmed], readings)) !== -1) {
      found.push({
        code: "SECRET_WHITESPACE",
        message: `secrets[${i}] has surrounding whitespace and the trimmed secret matches: remove the whitespace from the stored secret`,
      });
      break;
    }
  }

  for (const variant of bodyVariants(ctx.body)) {
    if ((yield* matches(ctx.secrets, readings, variant.text)) !== -1) {
      found.push({
        code: "BODY_RESERIALISED",
        message: `the signature matches the body ${variant.how}: verify the raw request body text, not a parsed or re-serialised one (spec 4.9 step 3)`,
      });
      break;
    }
  }

  for (const [how, canonical] of misorderedQueries(ctx.query, readings)) {
    if ((yield* matches(ctx.secrets, [canonical])) !== -1) {
      found.push({
        code: "QUERY_UNSORTED_MATCHES",
        message: `the signature matches the query ${how}: the signer did not sort the query by code point, key then value (spec 4.9 rules 2-3)`,
      });
      break;
    }
  }

  const urls = yield* urlMismatch(ctx, readings, matches);
  if (urls) found.push({ code: "URL_MISMATCH", message: urls });
  return found;
}

function* urlMismatch(
  ctx: MismatchContext,
  readings: readonly string[],
  matches: (secrets: readonly string[], canonicals: readonly string[]) => HmacSteps<number>,
): HmacSteps<string | undefined> {
  for (const [i, url] of ctx.alternateUrls.entries()) {
    const alternate = readingsOf(queryOf(url)).filter((c) => !readings.includes(c));
    if (alternate.length > 0 && (yield* matches(ctx.secrets, alternate)) !== -1) {
      return `the signature matches alternateUrls[${i}]: verify with the URL the platform called, before any proxy rewrote it (spec 4.8)`;
    }
  }
  if (ctx.query !== "" && !readings.includes("") && (yield* matches(ctx.secrets, [""])) !== -1) {
    return "the signature matches the URL without its query: the platform called a URL without this query (spec 4.9 rule 6)";
  }
  return undefined;
}

function readingsOf(query: string): string[] {
  const raw = canonicalQuery(query);
  const form = canonicalQuery(query, { reading: "form-decoded" });
  return form === raw ? [raw] : [raw, form];
}

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

function* firstMatch(
  ctx: MismatchContext,
  secrets: readonly string[],
  canonicals: readonly string[],
  body: string,
): HmacSteps<number> {
  for (const canonical of canonicals) {
    const text = signingText(ctx.timestamp, canonical, body);
    for (const [i, secret] of secrets.entries()) {
      if (secret === "") continue;
      const request: HmacRequest = [secret, text];
      if (constantTimeEqual(yield request, ctx.signature)) return i;
    }
  }
  return -1;
}
