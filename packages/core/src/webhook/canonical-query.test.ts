import { describe, expect, it } from "vitest";
import { canonicalQuery, compareCodePoints, queryOf } from "./index.ts";

const decoded = (query: string): string => canonicalQuery(query, { reading: "form-decoded" });
const percentDecoded = (query: string): string =>
  canonicalQuery(query, { reading: "percent-decoded" });

describe("canonicalQuery: signed query string rules (spec 4.9)", () => {
  it("rule 1: keeps duplicate parameters", () => {
    expect(canonicalQuery("a=1&a=1&b=2")).toBe("a=1&a=1&b=2");
  });

  it("rule 2: sorts by parameter name ascending", () => {
    expect(canonicalQuery("c=1&a=2&b=3")).toBe("a=2&b=3&c=1");
  });

  it("rule 3: sorts equal names by value ascending", () => {
    expect(canonicalQuery("a=3&a=1&a=2")).toBe("a=1&a=2&a=3");
  });

  it("rule 4: gives a missing value the empty string", () => {
    expect(canonicalQuery("b&a=1")).toBe("a=1&b=");
  });

  it("rule 5: joins key=value pairs with &", () => {
    expect(canonicalQuery("x=1&y=2")).toBe("x=1&y=2");
    expect(canonicalQuery("y=2&x=1")).toBe("x=1&y=2");
  });

  it("rule 6: gives an empty string for no query", () => {
    expect(canonicalQuery("")).toBe("");
    expect(canonicalQuery("?")).toBe("");
  });

  it("turns the spec's shape example b=2&a=3&a=1&empty into a=1&a=3&b=2&empty=", () => {
    expect(canonicalQuery("b=2&a=3&a=1&empty")).toBe("a=1&a=3&b=2&empty=");
  });
});

describe("canonicalQuery: details the spec leaves open", () => {
  it("accepts a leading ? or none", () => {
    expect(canonicalQuery("?b=1&a=2")).toBe(canonicalQuery("b=1&a=2"));
  });

  it("splits a pair on its first = only", () => {
    expect(canonicalQuery("t=abc==&q=a=b")).toBe("q=a=b&t=abc==");
    expect(canonicalQuery("t=abc==")).toBe("t=abc==");
  });

  it("treats a single key without = like any missing value", () => {
    expect(canonicalQuery("flag")).toBe("flag=");
  });

  it("skips empty segments", () => {
    expect(canonicalQuery("a=1&&b=2&")).toBe("a=1&b=2");
  });

  it("keeps an empty key, which sorts first", () => {
    expect(canonicalQuery("a=1&=v")).toBe("=v&a=1");
  });

  it("sorts by code point, not locale: B before a, a-b before a_b, Z before é", () => {
    expect(canonicalQuery("a=1&B=2")).toBe("B=2&a=1");
    expect(canonicalQuery("a_b=1&a-b=2")).toBe("a-b=2&a_b=1");
    expect(canonicalQuery("é=1&Z=2")).toBe("Z=2&é=1");
  });

  it("sorts a supplementary character after U+FF61 by code point, unlike UTF-16 order", () => {
    expect(canonicalQuery("😀=1&｡=2")).toBe("｡=2&😀=1");
  });

  it("sorts values as strings, not numbers", () => {
    expect(canonicalQuery("v=9&v=10")).toBe("v=10&v=9");
  });

  it("keeps percent escapes and + byte-for-byte in the raw reading", () => {
    expect(canonicalQuery("q=a+b%20c&p=%2b")).toBe("p=%2b&q=a+b%20c");
  });
});

describe("canonicalQuery: already-canonical fast path", () => {
  it("returns a query already in canonical form unchanged", () => {
    expect(canonicalQuery("a=1&a=1&b=&｡=2&😀=1")).toBe("a=1&a=1&b=&｡=2&😀=1");
  });

  it("still fills a missing value, drops empty segments and orders values in sorted keys", () => {
    expect(canonicalQuery("a=1&b")).toBe("a=1&b=");
    expect(canonicalQuery("a=1&b=2&")).toBe("a=1&b=2");
    expect(canonicalQuery("&a=1")).toBe("a=1");
    expect(canonicalQuery("a=2&a=1")).toBe("a=1&a=2");
  });

  it("agrees with a plain split-and-sort reference on generated queries", () => {
    const alphabet = ["a", "b", "B", "=", "&", "-", "_", "é", "｡", "😀", "%2B", "+"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      let query = "";
      for (let len = next() % 12; len > 0; len--) query += alphabet[next() % alphabet.length] ?? "";
      expect(canonicalQuery(query), query).toBe(referenceCanonical(query));
    }
  });
});

// Independent of the code under test: sorts by UTF-8 bytes rather than adjusted code units.
function referenceCanonical(query: string): string {
  const utf8 = new TextEncoder();
  const bytes = (a: string, b: string): number => {
    const x = utf8.encode(a);
    const y = utf8.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
    }
    return x.length - y.length;
  };
  return query
    .split("&")
    .filter((part) => part !== "")
    .map((part): [string, string] => {
      const eq = part.indexOf("=");
      return eq === -1 ? [part, ""] : [part.slice(0, eq), part.slice(eq + 1)];
    })
    .sort((p, q) => bytes(p[0], q[0]) || bytes(p[1], q[1]))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

describe("canonicalQuery: form-decoded reading", () => {
  it("reads + as a space and decodes percent escapes before sorting and joining", () => {
    expect(decoded("q=hello+world&a=%20x")).toBe("a= x&q=hello world");
  });

  it("decodes %2B and %3D to + and = inside a value", () => {
    expect(decoded("expr=1%2B1%3D2")).toBe("expr=1+1=2");
  });

  it("treats lowercase and uppercase hex escapes alike", () => {
    expect(decoded("b=%2b&a=%2B")).toBe("a=+&b=+");
  });

  it("sorts by the decoded keys", () => {
    expect(decoded("%61=2&a=1&b=0")).toBe("a=1&a=2&b=0");
  });

  it("decodes UTF-8 escapes to CJK and emoji", () => {
    expect(decoded("name=%E4%BD%A0%E5%A5%BD&tag=%F0%9F%8E%B5")).toBe("name=你好&tag=🎵");
  });

  it("keeps invalid escapes as given and replaces invalid UTF-8 with U+FFFD, like URLSearchParams", () => {
    const query = "a=%zz&b=%E9&c=100%";
    expect(decoded(query)).toBe("a=%zz&b=\uFFFD&c=100%");
    expect([...new URLSearchParams(query)].map(([k, v]) => `${k}=${v}`).join("&")).toBe(
      decoded(query),
    );
  });

  it("keeps a leading byte order mark, like URLSearchParams", () => {
    expect(decoded("a=%EF%BB%BFx&b=%zz")).toBe("a=\uFEFFx&b=%zz");
  });
});

describe("canonicalQuery: percent-decoded reading (+ kept)", () => {
  it("decodes percent escapes and keeps + as given, like decodeURIComponent", () => {
    expect(percentDecoded("q=hello+world&a=%20x%21")).toBe("a= x!&q=hello+world");
  });

  it("decodes %2B to + so that it equals a literal +", () => {
    expect(percentDecoded("b=%2B&a=+")).toBe("a=+&b=+");
  });

  it("sorts by the decoded keys", () => {
    expect(percentDecoded("%61=2&a=1&b=+")).toBe("a=1&a=2&b=+");
  });

  it("keeps invalid escapes as given and replaces invalid UTF-8 with U+FFFD", () => {
    expect(percentDecoded("a=%zz+&b=%E9&c=100%")).toBe("a=%zz+&b=\uFFFD&c=100%");
  });

  it("agrees with the form-decoded reading when the query has no +", () => {
    const query = "name=%E4%BD%A0%E5%A5%BD&q=a%20b";
    expect(percentDecoded(query)).toBe(decoded(query));
  });

  it("agrees with the raw reading when the query has no %", () => {
    expect(percentDecoded("q=a+b&p=c")).toBe(canonicalQuery("q=a+b&p=c"));
  });
});

describe("compareCodePoints", () => {
  it("orders by code point where UTF-16 code units disagree", () => {
    expect(["😀", "｡", "a"].sort(compareCodePoints)).toEqual(["a", "｡", "😀"]);
  });

  it("orders a prefix first", () => {
    expect(compareCodePoints("ab", "abc")).toBeLessThan(0);
    expect(compareCodePoints("abc", "abc")).toBe(0);
  });
});

describe("queryOf", () => {
  it("returns the text between the first ? and #", () => {
    expect(queryOf("https://r.example/hook?b=2&a=1#top")).toBe("b=2&a=1");
  });

  it("returns an empty string for no ?, a bare ?, or a ? inside the fragment", () => {
    expect(queryOf("https://r.example/hook")).toBe("");
    expect(queryOf("https://r.example/hook?")).toBe("");
    expect(queryOf("https://r.example/hook?#x")).toBe("");
    expect(queryOf("https://r.example/hook#x?a=1")).toBe("");
  });

  it("keeps a second ? inside the query", () => {
    expect(queryOf("https://r.example/hook?a=1?b=2")).toBe("a=1?b=2");
  });

  it("does not normalise characters the way new URL().search does", () => {
    const url = "https://r.example/hook?q=a b'c&é=1";
    expect(queryOf(url)).toBe("q=a b'c&é=1");
    expect(new URL(url).search).not.toBe("?q=a b'c&é=1");
  });

  it("reads a URL object through its href", () => {
    expect(queryOf(new URL("https://r.example/hook?b=2&a=1#f"))).toBe("b=2&a=1");
  });
});
