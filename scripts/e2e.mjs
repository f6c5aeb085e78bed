// npm run test:e2e — builds the site, serves dist/ on 127.0.0.1 compressed (as
// a static host does), opens every page in headless Chromium at 1280 px and at
// 390 px (a phone) and fails on any cell error, console error, request to
// another origin, data-check whose data-pass is not "true", horizontal page
// scroll, table cell whose content overflows its box, unnamed slider, Plot
// <g> named without a role, missing lang or meta description, or blocked zoom.
// Pages that run GPU kernels in WebGL2 must show their checks (REQUIRED).
//   --no-build   use dist/ as it is (.ci/run: npm test has just built it)
import { existsSync } from "node:fs";
import { buildSite, serve, launch, checkPage, problemsOf, pagesOf } from "./browser.mjs";
import { CHAPTERS } from "../lib/chapters.ts";

/** Browser checks that must be present (page → data-check names). */
const REQUIRED = {
  precision: ["quantize-webgl2", "accumulate-webgl2"],
  "accumulation-checkpointing": ["nn-matmul-gpu", "accumulation-live-training"],
  amp: ["amp-accumulate-gpu", "amp-scale-trace-live"],
  "data-parallel": ["reduce-kernel-webgl2", "ddp-reducer-equals-single"],
  "flash-attention": ["flash-kernel-webgl2", "standard-kernel-webgl2"],
  "tensor-parallel": ["tp-matmul-webgl2"],
  "pipeline-parallel": ["pipeline-training"],
  sophia: ["sophia-kernel-webgl2"],
  plan: ["plan-search"],
};

const WIDTHS = [1280, 390];
const t0 = Date.now();
if (process.argv.includes("--no-build")) {
  if (!existsSync("dist/index.html.br")) { console.log("✗ --no-build: dist/ is missing or was not post-built (npm run build)"); process.exit(1); }
  console.log("using dist/ as built");
} else {
  console.log("building the site …");
  buildSite("dist");
}
const pages = pagesOf("dist");
const missing = CHAPTERS.filter((c) => c.status === "written" && !pages.includes(c.slug)).map((c) => c.slug);
if (missing.length) { console.log(`✗ chapters marked written without a page: ${missing.join(", ")}`); process.exit(1); }
let failed = 0;
const server = await serve("dist");
// Served as a static host serves it: the precompressed copies, when asked for.
for (const [enc, want] of [["br", "br"], ["gzip", "gzip"]]) {
  const got = (await fetch(`${server.url}/`, { headers: { "accept-encoding": enc } })).headers.get("content-encoding");
  if (got !== want) { console.log(`✗ the home page is not served with content-encoding ${want} (got ${got})`); failed++; }
}
const browser = await launch();
let runs = 0;
for (const page of pages) {
  for (const width of WIDTHS) {
    const shot = `test-results/${page || "index"}${width === 1280 ? "" : `-${width}`}.png`;
    const r = await checkPage(browser, `${server.url}/${page}`, { screenshot: shot, width, expectChecks: REQUIRED[page] ?? [] });
    const problems = problemsOf(r);
    for (const name of REQUIRED[page] ?? []) if (!r.checks.some((c) => c.name === name)) problems.push(`missing required browser check data-check="${name}"`);
    console.log(`${problems.length ? "✗" : "✓"} /${page} at ${width} px${r.clicked ? ` (pressed ${r.clicked} button${r.clicked > 1 ? "s" : ""})` : ""} ${r.checks.map((c) => `[${c.name}: ${c.text}]`).join(" ")}`);
    for (const p of problems) console.log(`    ${p}`);
    failed += problems.length ? 1 : 0;
    runs++;
  }
}
await browser.close();
await server.close();
console.log(`\n${pages.length} pages at ${WIDTHS.join(" and ")} px in ${((Date.now() - t0) / 1000).toFixed(0)} s; screenshots in test-results/`);
console.log(`e2e: ${runs - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
