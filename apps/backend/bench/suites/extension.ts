import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { benchTmp } from "../lib/databases.ts";
import { BACKEND_DIR } from "../lib/procs.ts";
import { figure, type Figure, type Section } from "../lib/report.ts";
import { fmt, median } from "../lib/stats.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Item 6: the built Chrome extension. Gzipped size of each entry with every file it loads, beside
 * the Preact runtime any such UI needs; and time from opening the popup to first content in
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

/** Files an HTML entry loads: its scripts, preloads, styles and their static imports. */
function filesOf(entry: string): { files: Set<string>; lazy: Set<string> } {
  const files = new Set<string>([entry]);
  const lazy = new Set<string>();
  const queue: string[] = [];
  if (entry.endsWith(".html")) {
    const html = readFileSync(join(BUILD, entry), "utf8");
    for (const match of html.matchAll(/(?:src|href)="\/?([^"]+\.(?:js|css))"/g)) {
      if (match[1]) queue.push(match[1]);
    }
  } else queue.push(entry);
  while (queue.length > 0) {
    const file = queue.shift() ?? "";
    if (files.has(file) && file !== entry) continue;
    files.add(file);
    if (!file.endsWith(".js")) continue;
    const code = readFileSync(join(BUILD, file), "utf8");
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
    for (const match of code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g)) {
      if (match[1]) queue.push(join(dir, match[1]));
    }
    for (const match of code.matchAll(/import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)) {
      if (match[1]) lazy.add(join(dir, match[1]));
    }
  }
  return { files, lazy };
}

function preactRuntimeGz(): number {
  const preact = requireFromExtension.resolve("preact");
  const root = preact.slice(0, preact.lastIndexOf("/dist/"));
  return gz(join(root, "dist/preact.module.js")) + gz(join(root, "hooks/dist/hooks.module.js"));
}

function sizeFigures(): { figures: Figure[]; detail: string } {
  const runtime = preactRuntimeGz();
  const entries = [
    ["popup", "popup.html"],
    ["side panel", "sidepanel.html"],
    ["options", "options.html"],
    ["background", "background.js"],
  ] as const;
  const details: string[] = [];
  const figures = entries.map(([name, entry]) => {
    const { files, lazy } = filesOf(entry);
    const bytes = [...files].reduce((sum, f) => sum + gz(join(BUILD, f)), 0);
    details.push(
      `${name}: ${[...files].map((f) => `${f} ${fmt(gz(join(BUILD, f)) / 1024)} KB`).join(", ")}` +
        (lazy.size > 0 ? ` (loaded later: ${[...lazy].join(", ")})` : ""),
    );
    return figure(`${name}: gzipped, with everything it loads`, bytes / 1024, "KB", {
      reference: { name: "Preact + hooks runtime", value: runtime / 1024 },
      better: "lower",
    });
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
  const sizes = sizeFigures();
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
        `Sizes: each file gzipped at level 9, summed over the entry's HTML, scripts, module preloads, styles and ` +
          `their static imports (shared chunks count in every entry that loads them). Reference: Preact's runtime ` +
          `and hooks (ESM builds, gzipped), the floor of any Preact UI. Files: ${sizes.detail}.`,
        timing.note,
      ],
    },
  ];
}
