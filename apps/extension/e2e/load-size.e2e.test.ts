// What the popup and the side panel load when they open, in the build the browser tests load
// (global-setup.ts builds it): issue 16's budget, and the reader that measures it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OPEN_BUDGET_KB, loadSize } from "./support/load-size.ts";

const BUILD = resolve(import.meta.dirname, "../.output/chrome-mv3");

describe.each(["popup.html", "sidepanel.html"])("the built %s", (entry) => {
  it(`loads at most ${OPEN_BUDGET_KB} KB gzipped when it opens`, () => {
    const size = loadSize(BUILD, entry);
    const files = size.atOpen.map((f) => `${f.file} ${f.bytes} B`).join(", ");
    expect(size.atOpenBytes, files).toBeLessThanOrEqual(OPEN_BUDGET_KB * 1024);
  });

  it("leaves the signed-in view, its script and its styles, to what loads later", () => {
    const size = loadSize(BUILD, entry);
    expect(size.atOpen.map((f) => f.file).filter((f) => f.includes("signed-in"))).toEqual([]);
    expect(size.later.map((f) => f.file).filter((f) => f.includes("signed-in"))).toHaveLength(2);
  });
});

describe("the load-size reader", () => {
  let dir = "";
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const build = (files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), "load-size-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
  const PAGE = '<script type="module" src="/a.js"></script><link rel="stylesheet" href="/a.css">';

  it("counts the page, its script and style and their static imports at open", () => {
    const size = loadSize(
      build({ "page.html": PAGE, "a.js": 'import"./b.js";', "a.css": "p{}", "b.js": "" }),
      "page.html",
    );
    expect(size.atOpen.map((f) => f.file)).toEqual(["page.html", "a.js", "a.css", "b.js"]);
    expect(size.later).toEqual([]);
  });

  it("counts import() targets and their own imports later, once", () => {
    const size = loadSize(
      build({
        "page.html": PAGE,
        "a.js": 'import{x}from"./b.js";import(`./c.js`);',
        "a.css": "",
        "b.js": "",
        "c.js": 'import"./b.js";import"./d.js";',
        "d.js": "",
      }),
      "page.html",
    );
    expect(size.later.map((f) => f.file)).toEqual(["c.js", "d.js"]);
    expect(size.atOpenBytes + size.laterBytes).toBe(
      [...size.atOpen, ...size.later].reduce((sum, f) => sum + f.bytes, 0),
    );
  });

  it("counts the stylesheets in Vite's preload list later", () => {
    const size = loadSize(
      build({
        "page.html": PAGE,
        "a.js": 'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["c.js","c.css"])));',
        "a.css": "",
        "c.js": "",
        "c.css": "p{}",
      }),
      "page.html",
    );
    expect(size.later.map((f) => f.file)).toEqual(["c.js", "c.css"]);
  });
});
