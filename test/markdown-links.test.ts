import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every relative link in the repository's Markdown resolves inside a fresh clone: to a file or
 * folder git would check out, and, for `#anchor`s into Markdown, to a heading that exists there.
 * Links out of the repository (`../shared/…` and the like) exist on one machine only.
 */
const root = join(import.meta.dirname, "..");
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file.length > 0);
const inClone = new Set(files);
const folders = new Set(files.flatMap((file) => ancestors(file)));
const markdown = files.filter((file) => file.endsWith(".md") && !file.includes("node_modules/"));

function ancestors(file: string): string[] {
  const out: string[] = [];
  for (let dir = posix.dirname(file); dir !== "."; dir = posix.dirname(dir)) out.push(dir);
  return out;
}

/** Inline links and reference definitions, outside fenced code blocks and inline code. */
function linkTargets(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
  const inline = [...prose.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)];
  const definitions = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(?:<([^>]+)>|(\S+))/gm)];
  return [...inline, ...definitions].map((match) => match[1] ?? match[2] ?? "");
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ""] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Anchors written as HTML (`<a id="…">`, `<a name="…">`), as generated references use in tables. */
function htmlAnchors(text: string): Set<string> {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
  return new Set([...prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)].map((match) => match[1] ?? ""));
}

function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:, chrome:…
  const [pathPart = "", anchor] = target.split("#", 2);
  const path = decodeURIComponent(pathPart);
  const resolved = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path));
  if (resolved.startsWith("../") || resolved === "..") return "points outside the repository";
  const clean = resolved.replace(/\/$/, "");
  if (!inClone.has(clean) && !folders.has(clean) && clean !== ".") return "does not exist";
  if (anchor && clean.endsWith(".md") && inClone.has(clean)) {
    const text = readFileSync(join(root, clean), "utf8");
    if (!headingAnchors(text).has(anchor) && !htmlAnchors(text).has(anchor)) {
      return `has no heading for #${anchor}`;
    }
  }
  return undefined;
}

describe("Markdown links", () => {
  it("finds the repository's Markdown files", () => {
    expect(markdown).toContain("README.md");
    expect(markdown.length).toBeGreaterThan(5);
  });

  it("resolve to files, folders and headings a fresh clone has", () => {
    const broken = markdown.flatMap((file) =>
      linkTargets(readFileSync(join(root, file), "utf8")).flatMap((target) => {
        const why = problem(file, target);
        return why ? [`${file}: (${target}) ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });
});

describe("the link reader itself", () => {
  it("reads inline links and reference definitions but not code", () => {
    const text =
      'See [a](docs/a.md) and [b](<b c.md> "t").\n\n[d]: ../x.md\n\n```\n[e](f.md)\n```\n`[g](h.md)`';
    expect(linkTargets(text)).toEqual(["docs/a.md", "b c.md", "../x.md"]);
  });

  it("refuses a link that leaves the repository even when the target exists on this machine", () => {
    expect(problem("README.md", "../shared/DESIGN.md")).toBe("points outside the repository");
  });

  it("refuses a missing file and a missing heading, accepts a real one", () => {
    expect(problem("README.md", "docs/nothing-here.md")).toBe("does not exist");
    expect(problem("README.md", "README.md#no-such-heading")).toMatch(/no heading/);
    expect(problem("README.md", "README.md#quick-start")).toBeUndefined();
  });

  it("takes an HTML anchor as a target, as GitHub does", () => {
    const text = '| <a id="property-fetch"></a> `fetch?` |\n\n```\n<a id="in-code"></a>\n```';
    expect([...htmlAnchors(text)]).toEqual(["property-fetch"]);
  });

  it("numbers repeated headings the way GitHub does", () => {
    expect([...headingAnchors("# A b\n## A b\n### Spec 4.9: signing\n")]).toEqual([
      "a-b",
      "a-b-1",
      "spec-49-signing",
    ]);
  });

  it("resolves links relative to the file that holds them", () => {
    expect(relative(root, join(root, dirname("docs/x.md"), "../README.md"))).toBe("README.md");
    expect(problem("docs/design.md", "../README.md")).toBeUndefined();
  });
});
