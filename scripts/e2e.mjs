// npm run test:e2e — builds the site once as GitHub Pages publishes a project
// site (under the base path COURSE_BASE, default /llm-course/, with canonical
// links for the origin COURSE_SITE_URL, default https://llm-course.example),
// checks the built pages (scripts/check-build.mjs), serves dist/ under that
// prefix on 127.0.0.1, compressed (as a static host does), and opens every page
// in headless Chromium at 1280 px and at 390 px (a phone). It changes the first and the last input
// of every calculator and fails when its results are then out of view (scripts/calculator-check.mjs).
// It fails on any cell
// error, console error, failed request, request to another origin, data-check
// whose data-pass is not "true", horizontal page scroll, table cell whose
// content overflows its box, unnamed slider, Plot <g> named without a role,
// missing lang or meta description, or blocked zoom. At 1280 px it also
// switches each page to prefers-color-scheme: dark (screenshots
// test-results/<page>-dark.png) and checks the contrast of text, figure text
// and figure marks in both schemes (scripts/contrast.mjs). Then it follows every
// same-origin <a href> of every page: none may leave the prefix, each target
// must answer and each #fragment must name an element; and it opens two
// missing addresses, which must get the 404 page with its links under the prefix.
// Pages that run GPU kernels in WebGL2 or WebGPU must show their checks (REQUIRED); Chromium runs
// WebGPU on SwiftShader (scripts/browser.mjs: --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader).
//   --no-build   use dist/ as it is (its base path is read from dist/404.html)
import { existsSync, mkdirSync } from "node:fs";
import { buildSite, serve, launch, checkPage, problemsOf, notesOf, pagesOf } from "./browser.mjs";
import { checkBuild } from "./check-build.mjs";
import { baseOf } from "./postbuild.mjs";
import { CHAPTERS } from "../lib/chapters.ts";

/** Browser checks that must be present (page → data-check names). */
const REQUIRED = {
  precision: ["quantize-webgl2", "accumulate-webgl2"],
  "accumulation-checkpointing": ["nn-matmul-gpu", "accumulation-live-training"],
  amp: ["amp-accumulate-gpu", "amp-scale-trace-live", "amp-fp8-live"],
  "data-parallel": ["reduce-kernel-webgl2", "ddp-reducer-equals-single"],
  "flash-attention": ["flash-kernel-webgl2", "standard-kernel-webgl2", "flash-webgpu", "standard-webgpu"],
  "tensor-parallel": ["tp-matmul-webgl2"],
  "pipeline-parallel": ["pipeline-training"],
  zero: ["zero-stage3-equals-ddp"],
  offload: ["offload-adam-kernel"],
  sophia: ["sophia-kernel-webgl2"],
  plan: ["plan-search"],
  "context-parallel": ["cp-training-equals-single", "ring-kernel-webgl2", "ring-webgpu"],
};

const WIDTHS = [1280, 390];
const BASE = process.env.COURSE_BASE || "/llm-course/";
const SITE_URL = process.env.COURSE_SITE_URL || "https://llm-course.example";
const t0 = Date.now();
let runs = 0;
let failed = 0;
/** One check of the run: a line, and its problems indented below it. */
const result = (problems, line, notes = []) => {
  runs++;
  if (problems.length) failed++;
  console.log(`${problems.length ? "✗" : "✓"} ${line}`);
  for (const p of problems) console.log(`    ${p}`);
  for (const n of notes) console.log(`    note: ${n}`);
};

const noBuild = process.argv.includes("--no-build");
if (noBuild) {
  if (!existsSync("dist/index.html.br")) { console.log("✗ --no-build: dist/ is missing or was not post-built (npm run build)"); process.exit(1); }
  console.log(`using dist/ as built (base path ${baseOf("dist")})`);
} else {
  console.log(`building the site under ${BASE} (COURSE_BASE), canonical links for ${SITE_URL} (COURSE_SITE_URL) …`);
  buildSite("dist", { env: { COURSE_BASE: BASE, COURSE_SITE_URL: SITE_URL } });
  console.log(`the build took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
const base = baseOf("dist");
const pages = pagesOf("dist");
const missing = CHAPTERS.filter((c) => c.status === "written" && !pages.includes(c.slug)).map((c) => c.slug);
if (missing.length) { console.log(`✗ chapters marked written without a page: ${missing.join(", ")}`); process.exit(1); }

result(checkBuild("dist", { base: noBuild ? undefined : BASE }), `built pages (lang, zoom, descriptions, favicon, compression, errata; base path ${base}, canonical links, sitemap.xml, 404.html)`);

mkdirSync("test-results", { recursive: true });
const server = await serve("dist", { base });
// Served as a static host serves it: the precompressed copies, when asked for.
const encodings = [];
for (const enc of ["br", "gzip"]) {
  const got = (await fetch(server.url, { headers: { "accept-encoding": enc } })).headers.get("content-encoding");
  if (got !== enc) encodings.push(`the home page is not served with content-encoding ${enc} (got ${got})`);
}
result(encodings, `${server.url} served compressed (br, gzip)`);

const browser = await launch();
const known = new Map(pages.map((p) => [new URL(p, server.url).href, p])); // page URL → page
const linkedFrom = new Map(); // link (absolute URL) → pages it appears on
const idsOf = new Map(); // page → ids on it
for (const page of pages) {
  for (const width of WIDTHS) {
    const name = page || "index";
    const shot = `test-results/${name}${width === 1280 ? "" : `-${width}`}.png`;
    const wide = width === 1280;
    const r = await checkPage(browser, new URL(page, server.url).href, { screenshot: shot, width, expectChecks: REQUIRED[page] ?? [], contrast: wide, dark: wide ? `test-results/${name}-dark.png` : undefined });
    const problems = problemsOf(r);
    for (const n of REQUIRED[page] ?? []) if (!r.checks.some((c) => c.name === n)) problems.push(`missing required browser check data-check="${n}"`);
    if (wide) {
      idsOf.set(page, new Set(r.ids));
      for (const l of r.links) linkedFrom.set(l, [...(linkedFrom.get(l) ?? []), `/${page}`]);
    }
    result(problems, `${base}${page} at ${width} px${wide ? ", light and dark" : ""}${r.clicked ? ` (pressed ${r.clicked} button${r.clicked > 1 ? "s" : ""})` : ""} ${r.checks.map((c) => `[${c.name}: ${c.text}]`).join(" ")}`, notesOf(r));
  }
}

// Every same-origin link of every page: under the prefix, answered, its #fragment on the target page.
const linkProblems = [];
let sameOrigin = 0;
for (const [href, from] of linkedFrom) {
  const u = new URL(href);
  if (u.origin !== server.origin) continue; // another site: never requested (a page's own requests elsewhere fail above)
  sameOrigin++;
  const on = `(on ${[...new Set(from)].slice(0, 3).join(", ")}${from.length > 3 ? ", …" : ""})`;
  if (!u.pathname.startsWith(base)) { linkProblems.push(`${u.pathname}${u.hash} leaves the base path ${base} ${on}`); continue; }
  const target = u.origin + u.pathname.replace(/\.html$/, "").replace(/\/index$/, "/");
  const page = known.get(target);
  if (page === undefined) {
    const res = await fetch(u.origin + u.pathname + u.search).catch((e) => ({ ok: false, status: e.message }));
    if (!res.ok) linkProblems.push(`${u.pathname}: HTTP ${res.status} ${on}`);
    continue;
  }
  const id = decodeURIComponent(u.hash.slice(1));
  if (id && !idsOf.get(page)?.has(id)) linkProblems.push(`${u.pathname}#${id}: no element with that id on ${base}${page} ${on}`);
}
const linked = new Set([...linkedFrom.keys()].map((l) => { const u = new URL(l); return u.origin + u.pathname.replace(/\.html$/, "").replace(/\/index$/, "/"); }));
for (const [url, page] of known) if (!linked.has(url)) linkProblems.push(`${base}${page} is linked from no page`);
result(linkProblems, `links: ${sameOrigin} same-origin links on ${pages.length} pages, all under ${base}, every target found`);

// The search index under the prefix: a search from a chapter page finds pages, each link under the base path.
{
  const problems = [];
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const bad = [];
  page.on("response", (r) => { if (r.status() >= 400) bad.push(`${r.url()} (HTTP ${r.status()})`); });
  page.on("requestfailed", (r) => bad.push(`${r.url()} (${r.failure()?.errorText})`));
  const from = pages.find((p) => p.includes("/")) ?? pages.find((p) => p) ?? "";
  await page.goto(new URL(from, server.url).href, { waitUntil: "load" });
  await page.fill("#observablehq-search input", "precision");
  const hrefs = await page.waitForSelector("#observablehq-search-results ol a", { timeout: 30_000 })
    .then(() => page.$$eval("#observablehq-search-results ol a", (as) => as.map((a) => a.href)))
    .catch((e) => { problems.push(`no search results for "precision": ${e.message.split("\n")[0]}`); return []; });
  for (const h of hrefs) {
    const u = new URL(h);
    if (!u.pathname.startsWith(base)) problems.push(`search result ${u.pathname} leaves the base path ${base}`);
    else if (!known.has(u.origin + u.pathname.replace(/\.html$/, "").replace(/\/index$/, "/"))) problems.push(`search result ${u.pathname} is not a page`);
  }
  problems.push(...bad.map((b) => `failed request: ${b}`));
  await page.close();
  result(problems, `search from ${base}${from}: ${hrefs.length} results, all pages under ${base}`);
}

// A missing address, at the top and deeper: the host's 404 page, whose <base> keeps its links and assets under the prefix.
for (const path of ["no-such-page", "no/such/deeper/page"]) {
  const r = await checkPage(browser, server.url + path, { status: 404, screenshot: path === "no-such-page" ? "test-results/404.png" : undefined });
  const problems = problemsOf(r);
  if (!/not found/i.test(r.title)) problems.push(`the title is "${r.title}", not the 404 page's`);
  for (const l of r.links) { const u = new URL(l); if (u.origin === server.origin && !u.pathname.startsWith(base)) problems.push(`link ${u.pathname} leaves the base path ${base}`); }
  if (!r.links.some((l) => l === server.url)) problems.push(`no link to the home page ${server.url}`);
  result(problems, `${base}${path} → the 404 page (HTTP ${r.status})`);
}

await browser.close();
await server.close();
console.log(`\n${pages.length} pages at ${WIDTHS.join(" and ")} px (1280 px light and dark), links and the 404 page, under ${base}: ${((Date.now() - t0) / 1000).toFixed(0)} s; screenshots in test-results/`);
console.log(`e2e: ${runs - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
