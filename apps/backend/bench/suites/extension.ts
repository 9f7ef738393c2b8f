import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { benchTmp } from "../lib/databases.ts";
import { BACKEND_DIR } from "../lib/procs.ts";
import { figure, type Figure, type Section } from "../lib/report.ts";
import { fmt, median } from "../lib/stats.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Item 6: the built Chrome extension. Gzipped size of what each entry loads when it opens, and of
 * the chunks the popup and side panel load later, beside the Preact runtime any such UI needs; time from opening the popup to first content in
 * headless Chromium, beside a blank page of the same extension.
 */
const EXTENSION_DIR = resolve(BACKEND_DIR, "../extension");
const BUILD = join(EXTENSION_DIR, ".output/chrome-mv3");
// playwright-core is a dependency of the extension (its browser tests); resolve it from there.
const requireFromExtension = createRequire(join(EXTENSION_DIR, "package.json"));

// The few playwright-core calls used here (it is not a dependency of the backend package).
interface Handle {
  jsonValue(): Promise<unknown>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  waitForFunction(
    fn: () => unknown,
    arg: undefined,
    options: { polling: "raf" | number; timeout: number },
  ): Promise<Handle>;
  close(): Promise<void>;
}
interface BrowserContext {
  addInitScript(script: { content: string }): Promise<void>;
  newPage(): Promise<Page>;
  serviceWorkers(): { url(): string }[];
  waitForEvent(event: "serviceworker"): Promise<{ url(): string }>;
  close(): Promise<void>;
}
interface Launcher {
  launchPersistentContext(dir: string, options: Record<string, unknown>): Promise<BrowserContext>;
}

const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

// The extension's own reader of its build (its browser tests hold the popup to the budget with
// it), resolved through the extension's exports: the backend does not depend on the extension.
interface LoadedFile {
  file: string;
  bytes: number;
}
interface LoadSizeModule {
  OPEN_BUDGET_KB: number;
  loadSize: (
    build: string,
    entry: string,
  ) => { atOpen: LoadedFile[]; later: LoadedFile[]; atOpenBytes: number; laterBytes: number };
}
const loadSizeModule = async () =>
  (await import(
    pathToFileURL(requireFromExtension.resolve("@overture/extension/load-size")).href
  )) as LoadSizeModule;

function preactRuntimeGz(): number {
  const preact = requireFromExtension.resolve("preact");
  const root = preact.slice(0, preact.lastIndexOf("/dist/"));
  return gz(join(root, "dist/preact.module.js")) + gz(join(root, "hooks/dist/hooks.module.js"));
}

async function sizeFigures(): Promise<{ figures: Figure[]; detail: string }> {
  const { OPEN_BUDGET_KB, loadSize } = await loadSizeModule();
  const runtime = { name: "Preact + hooks runtime", value: preactRuntimeGz() / 1024 };
  const list = (files: LoadedFile[]) =>
    files.map((f) => `${f.file} ${fmt(f.bytes / 1024)} KB`).join(", ");
  const entries = [
    ["popup", "popup.html", true],
    ["side panel", "sidepanel.html", true],
    ["options", "options.html", false],
    ["background", "background.js", false],
  ] as const;
  const details: string[] = [];
  const figures = entries.flatMap(([name, entry, budgeted]) => {
    const size = loadSize(BUILD, entry);
    const atOpen = size.atOpenBytes / 1024;
    details.push(
      `${name}: ${list(size.atOpen)}` +
        (size.later.length > 0 ? ` (loaded later: ${list(size.later)})` : ""),
    );
    const open = figure(`${name}: gzipped, everything it loads at open`, atOpen, "KB", {
      reference: runtime,
      better: "lower",
      ...(budgeted ? { target: `≤ ${OPEN_BUDGET_KB} KB`, met: atOpen <= OPEN_BUDGET_KB } : {}),
    });
    if (!budgeted) return [open];
    const later = figure(
      `${name}: gzipped, chunks loaded later (signed-in view, panels)`,
      size.laterBytes / 1024,
      "KB",
      { reference: runtime, better: "lower" },
    );
    return [open, later];
  });
  return { figures, detail: details.join("; ") };
}

interface Timing {
  fcp: number;
  content: number;
}

// Installed in every page before its own scripts: notes when #app first holds text (the
// observer runs right after the mutation, before the frame that shows it is painted).
const FIRST_CONTENT_PROBE = `(() => {
  const seen = () => {
    const app = document.getElementById("app");
    if (!app || !(app.textContent || "").trim()) return false;
    window.__firstContent = performance.now();
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true, characterData: true });
})();`;

async function measure(page: Page, url: string): Promise<Timing> {
  await page.goto(url);
  const content = await page.waitForFunction(
    () => (window as unknown as { __firstContent?: number }).__firstContent ?? false,
    undefined,
    { polling: 20, timeout: 15_000 },
  );
  const fcp = await page.waitForFunction(
    () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? false,
    undefined,
    { polling: 20, timeout: 15_000 },
  );
  return { fcp: Number(await fcp.jsonValue()), content: Number(await content.jsonValue()) };
}

async function timingFigures(runs: number): Promise<{ figures: Figure[]; note: string }> {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    return {
      figures: [],
      note: `Popup timing skipped: no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH).`,
    };
  }
  const { chromium: launcher } = requireFromExtension("playwright-core") as { chromium: Launcher };
  // A copy of the build with one blank page added: the reference opens in the same extension.
  const root = benchTmp("extension");
  const dir = join(root, "chrome-mv3");
  cpSync(BUILD, dir, { recursive: true });
  writeFileSync(
    join(dir, "bench-blank.html"),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Overture</title></head>' +
      '<body><div id="app">Overture</div></body></html>',
  );
  let context: BrowserContext | undefined;
  try {
    context = await launcher.launchPersistentContext(join(root, "profile"), {
      executablePath: chromium,
      headless: true,
      viewport: { width: 400, height: 600 },
      ignoreDefaultArgs: ["--disable-extensions"],
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        `--disable-extensions-except=${dir}`,
        `--load-extension=${dir}`,
      ],
    });
    await context.addInitScript({ content: FIRST_CONTENT_PROBE });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
    const id = new URL(worker.url()).host;
    const popup: Timing[] = [];
    const blank: Timing[] = [];
    // One warm-up each, then interleaved runs in fresh tabs.
    for (let run = 0; run <= runs; run++) {
      for (const [list, page] of [
        [popup, "popup.html"],
        [blank, "bench-blank.html"],
      ] as const) {
        const tab = await context.newPage();
        const timing = await measure(tab, `chrome-extension://${id}/${page}`);
        await tab.close();
        if (run > 0) list.push(timing);
      }
    }
    const blankContent = median(blank.map((t) => t.content));
    return {
      figures: [
        figure("popup: open → first contentful paint", median(popup.map((t) => t.fcp)), "ms", {
          reference: { name: "blank extension page FCP", value: median(blank.map((t) => t.fcp)) },
          better: "lower",
          runs: popup.map((t) => t.fcp),
        }),
        figure("popup: open → first app content", median(popup.map((t) => t.content)), "ms", {
          reference: { name: "blank page content", value: blankContent },
          better: "lower",
          runs: popup.map((t) => t.content),
        }),
      ],
      note:
        `Headless Chromium (${chromium}, launch flags of STACK.md) with a copy of the built extension plus one ` +
        `blank page (\`<div id="app">Overture</div>\`). Each of ${runs} interleaved runs opens a new 400×600 tab at ` +
        `chrome-extension://<id>/popup.html or the blank page; times are from navigation start (performance.timeOrigin): ` +
        `first contentful paint, and the moment #app first holds text (a MutationObserver installed before the page's ` +
        `scripts; the popup renders an empty busy shell until the background answers with its snapshot). Medians; no ` +
        `backend is running, so the popup shows its signed-out screen.`,
    };
  } finally {
    await context?.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function extensionSuite(settings: BenchSettings): Promise<Section[]> {
  if (!existsSync(join(BUILD, "manifest.json"))) {
    throw new Error(
      `no built extension at ${BUILD}: run \`pnpm build\` (turbo builds it before \`pnpm bench\`)`,
    );
  }
  const sizes = await sizeFigures();
  const timing = await timingFigures(Math.max(5, settings.rounds * 2 + 1));
  settings.log(
    `  extension: popup ${fmt(sizes.figures[0]?.value ?? 0)} KB gz; ` +
      timing.figures.map((f) => `${f.name} ${fmt(f.value)} ms`).join(", "),
  );
  return [
    {
      id: "6",
      title: "Extension (Chrome MV3 build)",
      figures: [...sizes.figures, ...timing.figures],
      notes: [
        `Sizes: each file gzipped at level 9. At open: the entry's HTML, scripts, module preloads, styles and ` +
          `their static imports (shared chunks count in every entry that loads them); the popup and side panel ` +
          `are held to the 15 KB of issue 16. Loaded later: the chunks their code imports when it needs them ` +
          `(a signed-in person's tabs, the panels, the first-run setup), with their own imports, less what is ` +
          `already loaded. Reference: Preact's runtime and hooks (ESM builds, gzipped), the floor of any Preact ` +
          `UI. Files: ${sizes.detail}.`,
        timing.note,
      ],
    },
  ];
}
