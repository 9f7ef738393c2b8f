// Generates webhook-signatures.json: test vectors for spec 4.8/4.9 webhook signatures.
//
// Deliberately independent of @overture/core: signatures come from node:crypto's createHmac,
// the query is split by hand for the raw reading and by URLSearchParams for the form-decoded
// reading (and for the percent-decoded one, with each `+` escaped as `%2B` first so that it
// stays a `+`), and sorting compares UTF-8 bytes. Each case also states its expected canonical
// strings and outcome by hand; the script checks its own results against them and stops on any
// disagreement, so a bug here cannot silently become the reference.
//
// Run after editing the cases: `node test-vectors/generate.mjs && npx prettier --write test-vectors`
// (the JSON is committed).
import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const NOW = 1767225600000; // 2026-01-01T00:00:00.000Z
const TOLERANCE = 300000;
const SECRET = "overture-vector-secret";
const PREVIOUS = "overture-vector-secret-previous";
const BASE = "https://receiver.example/webhooks/overture";
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BODY =
  '{"event_id":"evt_01","task_id":"task_01","status":"success","output":{"file_url":"https://files.example/task_01.mp3"},"usage_info":{}}';

// --- independent reference implementation -------------------------------------------------

// `message` is a Buffer of exact bytes (a raw body may not be UTF-8), or text signed as UTF-8.
const hmacHex = (secret, message) => createHmac("sha256", secret).update(message).digest("hex");

/** timestamp LF canonical LF body, as bytes (spec 4.9 step 4); `body` is a Buffer. */
const signingBytes = (ts, canon, body) => Buffer.concat([Buffer.from(`${ts}\n${canon}\n`), body]);

/** What a strict reader makes of the verified bytes: UTF-8 without replacement, then JSON. */
function bodyReading(body) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return "WEBHOOK_BODY_NOT_UTF8";
  }
  try {
    JSON.parse(text);
    return "json";
  } catch {
    return "WEBHOOK_BODY_NOT_JSON";
  }
}

function rawQuery(url) {
  const hash = url.indexOf("#");
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const q = beforeHash.indexOf("?");
  return q === -1 ? "" : beforeHash.slice(q + 1);
}

function rawPairs(query) {
  return query
    .split("&")
    .filter((part) => part.length > 0)
    .map((part) => {
      const eq = part.indexOf("=");
      return eq === -1 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    });
}

const byBytes = (a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

function canonical(pairs) {
  return [...pairs]
    .sort((x, y) => byBytes(x[0], y[0]) || byBytes(x[1], y[1]))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

const canonicalRaw = (url) => canonical(rawPairs(rawQuery(url)));
const canonicalForm = (url) => canonical([...new URLSearchParams(rawQuery(url))]);
const canonicalPercent = (url) =>
  canonical([...new URLSearchParams(rawQuery(url).replaceAll("+", "%2B"))]);
const canonicalOf = {
  raw: canonicalRaw,
  "form-decoded": canonicalForm,
  "percent-decoded": canonicalPercent,
};

function header(headers, name) {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

// A plain restatement of the verification rules, used only to check the hand-written outcomes.
function referenceVerify({ secrets, url, bodyBytes, headers, now, tolerance_ms }) {
  const ts = header(headers, "x-sign-timestamp");
  const sig = header(headers, "x-signature");
  if (!ts || !sig) return { ok: false, code: "WEBHOOK_MISSING_HEADER" };
  if (!/^[0-9]{13}$/.test(ts)) return { ok: false, code: "WEBHOOK_MALFORMED_TIMESTAMP" };
  const skew = Number(ts) - now;
  if (Math.abs(skew) > tolerance_ms) {
    return { ok: false, code: "WEBHOOK_TIMESTAMP_OUT_OF_RANGE", skew_ms: skew };
  }
  if (!/^[0-9a-f]{64}$/.test(sig)) return { ok: false, code: "WEBHOOK_SIGNATURE_MISMATCH" };
  for (const [reading, canon] of [
    ["raw", canonicalRaw(url)],
    ["form-decoded", canonicalForm(url)],
    ["percent-decoded", canonicalPercent(url)],
  ]) {
    for (const [i, secret] of secrets.entries()) {
      if (hmacHex(secret, signingBytes(ts, canon, bodyBytes)) === sig) {
        return { ok: true, secret_index: i, reading };
      }
    }
  }
  return { ok: false, code: "WEBHOOK_SIGNATURE_MISMATCH" };
}

// --- cases ---------------------------------------------------------------------------------

/**
 * Each case: the request as received, how the platform signed it (`signer`, defaults: the first
 * secret, the same url and body, timestamp NOW - 1500, raw reading), an optional `edit` of the
 * signed headers into the received ones, the
 * hand-written canonical strings and the hand-written outcome.
 */
const cases = [
  c("valid-basic", "a correctly signed delivery with one query parameter", {
    url: `${BASE}?task=task_01`,
    raw: "task=task_01",
    outcome: ok(),
  }),
  c("no-query", "no query gives an empty second line (rule 6)", {
    url: BASE,
    raw: "",
    outcome: ok(),
  }),
  c("question-mark-only", "a `?` with nothing after it is an empty query", {
    url: `${BASE}?`,
    raw: "",
    outcome: ok(),
  }),
  c("question-mark-then-fragment", "`?#frag`: the query is empty", {
    url: `${BASE}?#results`,
    raw: "",
    outcome: ok(),
  }),
  c("question-mark-inside-fragment", "a `?` after `#` belongs to the fragment: no query", {
    url: `${BASE}#frag?a=1`,
    raw: "",
    outcome: ok(),
  }),
  c("spec-example", "the spec's shape example: b=2&a=3&a=1&empty", {
    url: `${BASE}?b=2&a=3&a=1&empty`,
    raw: "a=1&a=3&b=2&empty=",
    outcome: ok(),
  }),
  c("duplicate-keys-kept", "duplicate parameters are kept and sorted by value (rules 1, 3)", {
    url: `${BASE}?k=2&k=1&k=2&j=0`,
    raw: "j=0&k=1&k=2&k=2",
    outcome: ok(),
  }),
  c("empty-and-missing-values", "`y` and `w=` both give an empty value (rule 4)", {
    url: `${BASE}?z=&y&x=1&w=`,
    raw: "w=&x=1&y=&z=",
    outcome: ok(),
  }),
  c("value-contains-equals", "a pair splits on its first `=` only", {
    url: `${BASE}?sig=abc==&q=a=b=c`,
    raw: "q=a=b=c&sig=abc==",
    outcome: ok(),
  }),
  c("empty-key", "`=v` is an empty key with value v; the empty key sorts first", {
    url: `${BASE}?a=1&=v`,
    raw: "=v&a=1",
    outcome: ok(),
  }),
  c("empty-segments-skipped", "empty segments between or after `&` are skipped", {
    url: `${BASE}?a=1&&b=2&`,
    raw: "a=1&b=2",
    outcome: ok(),
  }),
  c("fragment-ignored", "the fragment is not part of the query", {
    url: `${BASE}?b=1&a=2#a=0`,
    raw: "a=2&b=1",
    outcome: ok(),
  }),
  c("sort-uppercase-before-lowercase", "code point order puts `B` (U+0042) before `a`", {
    url: `${BASE}?a=1&B=2`,
    raw: "B=2&a=1",
    outcome: ok(),
  }),
  c("sort-hyphen-before-underscore", "`a-b` (U+002D) sorts before `a_b` (U+005F)", {
    url: `${BASE}?a_b=1&a-b=2`,
    raw: "a-b=2&a_b=1",
    outcome: ok(),
  }),
  c("sort-ascii-before-accented", "`Z` (U+005A) sorts before `é` (U+00E9), unlike a locale", {
    url: `${BASE}?é=1&Z=2`,
    raw: "Z=2&é=1",
    outcome: ok(),
  }),
  c("sort-by-code-point-not-utf16", "U+FF61 sorts before U+1F600 (UTF-16 code units disagree)", {
    url: `${BASE}?😀=1&｡=2`,
    raw: "｡=2&😀=1",
    outcome: ok(),
  }),
  c("sort-values-as-strings", "values of one key sort as strings, not numbers", {
    url: `${BASE}?v=b&v=B&v=a&v=10&v=9`,
    raw: "v=10&v=9&v=B&v=a&v=b",
    outcome: ok(),
  }),
  c("percent-space-signed-raw", "`%20` kept as given in the raw reading", {
    url: `${BASE}?q=hello%20world&a=1`,
    raw: "a=1&q=hello%20world",
    form: "a=1&q=hello world",
    outcome: ok(),
  }),
  c("percent-space-signed-decoded", "the same query signed over the form-decoded reading", {
    url: `${BASE}?q=hello%20world&a=1`,
    raw: "a=1&q=hello%20world",
    form: "a=1&q=hello world",
    signer: { reading: "form-decoded" },
    outcome: ok({ reading: "form-decoded" }),
  }),
  c("percent-plus-and-equals-in-value", "`%2B` and `%3D` decode to `+` and `=` in a value", {
    url: `${BASE}?expr=1%2B1%3D2`,
    raw: "expr=1%2B1%3D2",
    form: "expr=1+1=2",
    signer: { reading: "form-decoded" },
    outcome: ok({ reading: "form-decoded" }),
  }),
  c("hex-escape-case", "`%2b` and `%2B` differ raw and agree decoded", {
    url: `${BASE}?b=%2b&a=%2B`,
    raw: "a=%2B&b=%2b",
    form: "a=+&b=+",
    outcome: ok(),
  }),
  c("escaped-key-reorders-when-decoded", "`%61` is `a`: decoding changes the order", {
    url: `${BASE}?%61=2&a=1&b=0`,
    raw: "%61=2&a=1&b=0",
    form: "a=1&a=2&b=0",
    signer: { reading: "form-decoded" },
    outcome: ok({ reading: "form-decoded" }),
  }),
  c("plus-signed-raw", "`+` kept as given in the raw reading", {
    url: `${BASE}?q=hello+world&p=a+b`,
    raw: "p=a+b&q=hello+world",
    form: "p=a b&q=hello world",
    outcome: ok(),
  }),
  c("plus-signed-decoded", "`+` read as a space in the form-decoded reading", {
    url: `${BASE}?q=hello+world&p=a+b`,
    raw: "p=a+b&q=hello+world",
    form: "p=a b&q=hello world",
    signer: { reading: "form-decoded" },
    outcome: ok({ reading: "form-decoded" }),
  }),
  c(
    "plus-and-percent-signed-percent-decoded",
    "`%21` decoded and `+` kept, as decodeURIComponent does",
    {
      url: `${BASE}?q=a+b%21&tag=%E4%BD%A0`,
      raw: "q=a+b%21&tag=%E4%BD%A0",
      form: "q=a b!&tag=你",
      percent: "q=a+b!&tag=你",
      signer: { reading: "percent-decoded" },
      outcome: ok({ reading: "percent-decoded" }),
    },
  ),
  c("plus-and-percent-signed-form-decoded", "the same query signed over the form-decoded reading", {
    url: `${BASE}?q=a+b%21&tag=%E4%BD%A0`,
    raw: "q=a+b%21&tag=%E4%BD%A0",
    form: "q=a b!&tag=你",
    percent: "q=a+b!&tag=你",
    signer: { reading: "form-decoded" },
    outcome: ok({ reading: "form-decoded" }),
  }),
  c("unicode-query-percent-encoded", "UTF-8 percent escapes decode to CJK and emoji", {
    url: `${BASE}?tag=%F0%9F%8E%B5&name=%E4%BD%A0%E5%A5%BD`,
    raw: "name=%E4%BD%A0%E5%A5%BD&tag=%F0%9F%8E%B5",
    form: "name=你好&tag=🎵",
    signer: { reading: "form-decoded" },
    outcome: ok({ reading: "form-decoded" }),
  }),
  c("unicode-query-raw", "unescaped CJK and emoji in the URL string are signed as given", {
    url: `${BASE}?name=你好&emoji=🎵`,
    raw: "emoji=🎵&name=你好",
    outcome: ok(),
  }),
  c("invalid-percent-escapes", "invalid escapes stay as given; invalid UTF-8 becomes U+FFFD", {
    url: `${BASE}?a=%zz&b=%E9&c=100%`,
    raw: "a=%zz&b=%E9&c=100%",
    form: "a=%zz&b=\uFFFD&c=100%",
    outcome: ok(),
  }),
  c("unicode-body-cjk", "a body with CJK text is signed as UTF-8", {
    url: `${BASE}?task=task_02`,
    body: '{"event_id":"evt_02","task_id":"task_02","status":"failure","output":{"error":"生成失败：提示词过长"},"usage_info":{}}',
    outcome: ok(),
  }),
  c("unicode-body-emoji", "a body with emoji (surrogate pairs, ZWJ sequences) is signed as UTF-8", {
    url: `${BASE}?task=task_03`,
    body: '{"event_id":"evt_03","task_id":"task_03","status":"success","output":{"title":"🎹🎶 night 👩🏽‍🎤"},"usage_info":{}}',
    outcome: ok(),
  }),
  c("empty-body", "an empty body leaves the third line empty (valid, but not JSON)", {
    url: `${BASE}?task=task_01`,
    body: "",
    outcome: ok(),
    reading: "WEBHOOK_BODY_NOT_JSON",
  }),
  c("body-trailing-newline", "a trailing newline is part of the raw body", {
    url: `${BASE}?task=task_01`,
    body: `${BODY}\n`,
    outcome: ok(),
  }),
  c("secret-unicode", "the secret is UTF-8 encoded as the HMAC key", {
    url: `${BASE}?task=task_01`,
    secrets: ["秘密-🔑-key"],
    outcome: ok(),
  }),
  c("rotated-secret-second", "two secrets during a rotation; the second one signed", {
    url: `${BASE}?task=task_01`,
    secrets: [SECRET, PREVIOUS],
    signer: { secret: PREVIOUS },
    outcome: ok({ secret_index: 1 }),
  }),
  c("rotated-secret-first", "two secrets during a rotation; the first one signed", {
    url: `${BASE}?task=task_01`,
    secrets: [SECRET, PREVIOUS],
    outcome: ok(),
  }),
  c("timestamp-past-boundary", "exactly tolerance_ms old is accepted", {
    url: `${BASE}?task=task_01`,
    timestamp: NOW - TOLERANCE,
    outcome: ok(),
  }),
  c("timestamp-future-boundary", "exactly tolerance_ms in the future is accepted", {
    url: `${BASE}?task=task_01`,
    timestamp: NOW + TOLERANCE,
    outcome: ok(),
  }),
  c("stale", "1 ms older than the tolerance", {
    url: `${BASE}?task=task_01`,
    timestamp: NOW - TOLERANCE - 1,
    outcome: fail("WEBHOOK_TIMESTAMP_OUT_OF_RANGE", { skew_ms: -TOLERANCE - 1 }),
  }),
  c("future", "1 ms further in the future than the tolerance", {
    url: `${BASE}?task=task_01`,
    timestamp: NOW + TOLERANCE + 1,
    outcome: fail("WEBHOOK_TIMESTAMP_OUT_OF_RANGE", { skew_ms: TOLERANCE + 1 }),
  }),
  c("custom-tolerance", "a 1 s tolerance rejects a 1.5 s old signature", {
    url: `${BASE}?task=task_01`,
    tolerance_ms: 1000,
    outcome: fail("WEBHOOK_TIMESTAMP_OUT_OF_RANGE", { skew_ms: -1500 }),
  }),
  c("tampered-body", "the body differs from the signed one (status changed)", {
    url: `${BASE}?task=task_01`,
    signer: { body: BODY.replace('"success"', '"failure"') },
    outcome: fail("WEBHOOK_SIGNATURE_MISMATCH"),
  }),
  c("tampered-query", "the query differs from the signed one", {
    url: `${BASE}?task=task_02`,
    signer: { url: `${BASE}?task=task_01` },
    outcome: fail("WEBHOOK_SIGNATURE_MISMATCH"),
  }),
  c("wrong-secret", "signed with a secret the receiver does not have", {
    url: `${BASE}?task=task_01`,
    signer: { secret: "not-the-receivers-secret" },
    outcome: fail("WEBHOOK_SIGNATURE_MISMATCH"),
  }),
  c("missing-timestamp-header", "no X-Sign-Timestamp", {
    url: `${BASE}?task=task_01`,
    edit: (h) => ({ "X-Signature": h["X-Signature"] }),
    outcome: fail("WEBHOOK_MISSING_HEADER", { header: "X-Sign-Timestamp" }),
  }),
  c("missing-signature-header", "no X-Signature", {
    url: `${BASE}?task=task_01`,
    edit: (h) => ({ "X-Sign-Timestamp": h["X-Sign-Timestamp"] }),
    outcome: fail("WEBHOOK_MISSING_HEADER", { header: "X-Signature" }),
  }),
  c("malformed-timestamp-seconds", "a 10-digit timestamp in seconds is malformed", {
    url: `${BASE}?task=task_01`,
    timestamp: (NOW - 1500) / 1000,
    outcome: fail("WEBHOOK_MALFORMED_TIMESTAMP"),
  }),
  c("malformed-timestamp-not-digits", "13 characters that are not all ASCII digits", {
    url: `${BASE}?task=task_01`,
    edit: (h) => ({ ...h, "X-Sign-Timestamp": "1767225598.50" }),
    outcome: fail("WEBHOOK_MALFORMED_TIMESTAMP"),
  }),
  c("uppercase-signature", "the right signature in uppercase hex is rejected (spec: lowercase)", {
    url: `${BASE}?task=task_01`,
    edit: (h) => ({ ...h, "X-Signature": h["X-Signature"].toUpperCase() }),
    outcome: fail("WEBHOOK_SIGNATURE_MISMATCH"),
  }),
  c("truncated-signature", "a signature of 63 hex characters is a mismatch", {
    url: `${BASE}?task=task_01`,
    edit: (h) => ({ ...h, "X-Signature": h["X-Signature"].slice(0, 63) }),
    outcome: fail("WEBHOOK_SIGNATURE_MISMATCH"),
  }),
  c("header-names-lowercase", "header names are case-insensitive (lowercase, as Node gives them)", {
    url: `${BASE}?task=task_01`,
    edit: rename((name) => name.toLowerCase()),
    outcome: ok(),
  }),
  c("header-names-uppercase", "header names are case-insensitive (uppercase)", {
    url: `${BASE}?task=task_01`,
    edit: rename((name) => name.toUpperCase()),
    outcome: ok(),
  }),
  c("body-bom-signed-over-bytes", "a body starting with a UTF-8 BOM, signed over its bytes", {
    url: `${BASE}?task=task_01`,
    bodyBytes: Buffer.concat([BOM, Buffer.from(BODY)]),
    outcome: ok(),
    reading: "json",
  }),
  c("body-bom-added-after-signing", "a BOM added in front of a body signed without one", {
    url: `${BASE}?task=task_01`,
    bodyBytes: Buffer.concat([BOM, Buffer.from(BODY)]),
    signer: { bodyBytes: Buffer.from(BODY) },
    outcome: fail("WEBHOOK_SIGNATURE_MISMATCH"),
  }),
  c(
    "body-invalid-utf8",
    "a correctly signed body that is not UTF-8 (byte 0xFF): valid, unreadable",
    {
      url: `${BASE}?task=task_01`,
      bodyBytes: Buffer.concat([
        Buffer.from('{"event_id":"evt_01","task_id":"task_01","status":"succ'),
        Buffer.from([0xff]),
        Buffer.from('ss"}'),
      ]),
      outcome: ok(),
      reading: "WEBHOOK_BODY_NOT_UTF8",
    },
  ),
  c("body-not-json", "a correctly signed UTF-8 body that is not JSON: valid, unreadable", {
    url: `${BASE}?task=task_01`,
    body: "event_id=evt_01&status=success",
    outcome: ok(),
    reading: "WEBHOOK_BODY_NOT_JSON",
  }),
];

function c(id, description, spec) {
  return { id, description, ...spec };
}
function ok(extra = {}) {
  return { ok: true, secret_index: 0, reading: "raw", ...extra };
}
function fail(code, extra = {}) {
  return { ok: false, code, ...extra };
}
function rename(fn) {
  return (h) => Object.fromEntries(Object.entries(h).map(([name, value]) => [fn(name), value]));
}

// --- build ---------------------------------------------------------------------------------

function build(spec) {
  const secrets = spec.secrets ?? [SECRET];
  const bodyBytes = spec.bodyBytes ?? Buffer.from(spec.body ?? BODY);
  const timestamp = String(spec.timestamp ?? NOW - 1500);
  const signer = spec.signer ?? {};
  const signerUrl = signer.url ?? spec.url;
  const signerCanon = canonicalOf[signer.reading ?? "raw"](signerUrl);
  const signerBody =
    signer.bodyBytes ?? (signer.body === undefined ? bodyBytes : Buffer.from(signer.body));
  const signed = {
    "X-Sign-Timestamp": timestamp,
    "X-Signature": hmacHex(
      signer.secret ?? secrets[0],
      signingBytes(timestamp, signerCanon, signerBody),
    ),
  };
  // `edit` returns the headers as received, e.g. with one removed or altered.
  const headers = spec.edit ? spec.edit(signed) : signed;

  const raw = canonicalRaw(spec.url);
  const form = canonicalForm(spec.url);
  const percent = canonicalPercent(spec.url);
  check(spec.id, "canonical_raw", raw, spec.raw ?? raw);
  check(spec.id, "canonical_form_decoded", form, spec.form ?? spec.raw ?? form);
  // Stated by hand only where it differs from both: with no `+` it is the form-decoded string,
  // with no `%` the raw one.
  const query = rawQuery(spec.url);
  const both = query.includes("+") && query.includes("%");
  const percentWanted = both
    ? spec.percent
    : (spec.percent ?? (query.includes("+") ? spec.raw : (spec.form ?? spec.raw)) ?? percent);
  check(spec.id, "canonical_percent_decoded", percent, percentWanted ?? "(stated by hand)");

  // `body` is the text of the bytes, present only when they are UTF-8 (the decoder keeps a BOM
  // as U+FEFF); `body_base64` always holds the exact bytes.
  const text = strictText(bodyBytes);
  const vector = {
    id: spec.id,
    description: spec.description,
    secrets,
    url: spec.url,
    ...(text === undefined ? {} : { body: text }),
    body_base64: bodyBytes.toString("base64"),
    headers,
    now: NOW,
    tolerance_ms: spec.tolerance_ms ?? TOLERANCE,
  };
  const expected = {
    ...spec.outcome,
    canonical_raw: raw,
    canonical_form_decoded: form,
    canonical_percent_decoded: percent,
  };
  const sentTimestamp = header(headers, "x-sign-timestamp");
  if (sentTimestamp !== undefined && /^[0-9]{13}$/.test(sentTimestamp)) {
    const canon = { raw, "form-decoded": form, "percent-decoded": percent }[
      expected.reading ?? "raw"
    ];
    const message = signingBytes(sentTimestamp, canon, bodyBytes);
    const messageText = strictText(message);
    if (messageText !== undefined) expected.signing_text = messageText;
    expected.signature = hmacHex(secrets[expected.secret_index ?? 0], message);
  }
  if (expected.ok) {
    expected.body_reading = bodyReading(bodyBytes);
    check(spec.id, "body_reading", expected.body_reading, spec.reading ?? "json");
  }
  const actual = referenceVerify({ ...vector, bodyBytes });
  for (const key of ["ok", "code", "secret_index", "reading", "skew_ms"]) {
    check(spec.id, key, actual[key], spec.outcome[key]);
  }
  return { ...vector, expected };
}

/** The bytes as text when they are valid UTF-8 (a leading BOM kept as U+FEFF), else undefined. */
function strictText(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function check(id, what, actual, wanted) {
  if (actual !== wanted) {
    throw new Error(
      `${id}: ${what} is ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`,
    );
  }
}

const ids = new Set();
for (const spec of cases) {
  if (ids.has(spec.id)) throw new Error(`duplicate id ${spec.id}`);
  ids.add(spec.id);
}

const file = {
  $comment:
    "Webhook signature test vectors for spec 4.8/4.9. Format: README.md in this folder. Generated by generate.mjs with node:crypto, independently of @overture/core; do not edit by hand.",
  version: 3,
  cases: cases.map(build),
};
const out = fileURLToPath(new URL("./webhook-signatures.json", import.meta.url));
writeFileSync(out, JSON.stringify(file, null, 2) + "\n");
console.log(`wrote ${file.cases.length} cases to ${out}`);
