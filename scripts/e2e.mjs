// npm run test:e2e — builds the site, serves dist/ on 127.0.0.1, opens every
// page in headless Chromium and fails on any cell error, console error,
// request to another origin, or data-check whose data-pass is not "true".
// Pages that run GPU kernels in WebGL2 must show their checks (REQUIRED).
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { buildSite, serve, launch, checkPage, problemsOf } from "./browser.mjs";
import { CHAPTERS } from "../lib/chapters.ts";

/** Browser checks that must be present (page → data-check names). */
const REQUIRED = {
  precision: ["quantize-webgl2", "accumulate-webgl2"],
  "accumulation-checkpointing": ["nn-matmul-gpu"],
  amp: ["amp-accumulate-gpu"],
  "data-parallel": ["reduce-kernel-webgl2"],
  "flash-attention": ["flash-kernel-webgl2", "standard-kernel-webgl2"],
};

function pagesOf(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith("_")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...pagesOf(p));
    else if (e.name.endsWith(".html") && e.name !== "404.html") out.push(relative("dist", p).replace(/\.html$/, "").replace(/(^|\/)index$/, "$1"));
  }
  return out.sort();
}

const t0 = Date.now();
console.log("building the site …");
buildSite("dist");
const pages = pagesOf("dist");
const missing = CHAPTERS.filter((c) => c.status === "written" && !pages.includes(c.slug)).map((c) => c.slug);
if (missing.length) { console.log(`✗ chapters marked written without a page: ${missing.join(", ")}`); process.exit(1); }
const server = await serve("dist");
const browser = await launch();
let failed = 0;
for (const page of pages) {
  const r = await checkPage(browser, `${server.url}/${page}`, { screenshot: `test-results/${page || "index"}.png` });
  const problems = problemsOf(r);
  for (const name of REQUIRED[page] ?? []) if (!r.checks.some((c) => c.name === name)) problems.push(`missing required browser check data-check="${name}"`);
  console.log(`${problems.length ? "✗" : "✓"} /${page}${r.clicked ? ` (pressed ${r.clicked} button${r.clicked > 1 ? "s" : ""})` : ""} ${r.checks.map((c) => `[${c.name}: ${c.text}]`).join(" ")}`);
  for (const p of problems) console.log(`    ${p}`);
  failed += problems.length ? 1 : 0;
}
await browser.close();
await server.close();
console.log(`\n${pages.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)} s; screenshots in test-results/`);
console.log(`e2e: ${pages.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
