// Shared browser machinery for the page checks (check-page.mjs) and the e2e
// run (e2e.mjs): build the site, serve a folder on 127.0.0.1, open pages in
// headless Chromium and collect what went wrong.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { join, extname, normalize, relative } from "node:path";
import { postBuild } from "./postbuild.mjs";
import { contrastAudit } from "./contrast.mjs";
import { calculatorProblems } from "./calculator-check.mjs";
import { navigationProblems } from "./phone-nav-check.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
  // WebGPU on SwiftShader (a page served from 127.0.0.1 is a secure context): the FlashAttention page's WGSL kernels
  "--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-webgpu-adapter=swiftshader"];

const CACHE = "src/.observablehq/cache";
/** Bundles of node_modules packages (keyed by name@version) and resolved npm: specifiers: no lib code in them. */
const KEEP = new Set(["_node", "_npm"]);

/**
 * Builds the site into `outDir`, then runs the post-build step
 * (scripts/postbuild.mjs). With `freshData` (the default, for the e2e run) the output of data and page loaders is removed from the cache
 * first, so that data computed by lib at build time matches lib now; the
 * bundles of node_modules packages stay (they are named by version and hold
 * no lib code). Page checks during development pass false: concurrent builds
 * share that cache. `env` adds environment variables for the build, e.g.
 * `{COURSE_BASE: "/llm-course/"}` (scripts/site.ts).
 */
export function buildSite(outDir = "dist", { quiet = true, freshData = true, env = {} } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  if (freshData && existsSync(CACHE)) for (const e of readdirSync(CACHE)) if (!KEEP.has(e)) rmSync(join(CACHE, e), { recursive: true, force: true });
  // The exercise boxes' metadata is cheap and follows every grader edit: never reuse it (a new
  // exercise's box would fail with "no exercise with id …" until a --fresh-data build).
  rmSync(join(CACHE, "data", "exercises.json"), { force: true });
  const r = spawnSync("npx", ["observable", "build"], { env: { ...process.env, ...env, COURSE_OUT: outDir }, encoding: "utf8", stdio: quiet ? "pipe" : "inherit" });
  if (r.status !== 0) throw new Error(`observable build failed (exit ${r.status}):\n${(r.stdout ?? "").slice(-4000)}\n${(r.stderr ?? "").slice(-4000)}`);
  postBuild(outDir);
  return r.stdout ?? "";
}

/** The pages of a built site, as URL paths without the leading slash ("" for the home page), sorted. */
export function pagesOf(dir, root = dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith("_")) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...pagesOf(p, root));
    else if (e.name.endsWith(".html") && e.name !== "404.html") out.push(relative(root, p).replace(/\.html$/, "").replace(/(^|\/)index$/, "$1"));
  }
  return out.sort();
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain", ".csv": "text/csv", ".woff2": "font/woff2" };

/**
 * Serves `root` on 127.0.0.1 (random port) under the path `base` (default "/";
 * a build for GitHub Pages is served as Pages serves it, e.g. under
 * /llm-course/) as a static host does: extensionless links resolve to .html;
 * a file's precompressed copy (`.br`, else `.gz`, written by
 * scripts/postbuild.mjs) is sent when the client accepts it; content-hashed
 * files (`/_…/`) are cached for a year, pages revalidated. A path outside
 * `base` is a 404; a missing file under it gets `root`/404.html with status
 * 404, when there is one (as GitHub Pages does).
 * Returns `{origin, url}` (url = origin + base, ending in "/") and `close()`.
 */
export async function serve(root, { base = "/" } = {}) {
  const notFound = join(root, "404.html");
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (pathname + "/" === base) { res.writeHead(301, { location: base }); res.end(); return; } // as Pages does
    try {
      if (!pathname.startsWith(base)) throw new Error("outside the base path");
      let p = normalize("/" + pathname.slice(base.length)).replace(/^(\.\.[/\\])+/, "");
      let file = join(root, p);
      if (p.endsWith("/")) file = join(file, "index.html");
      else if (!extname(p) && existsSync(file + ".html")) file += ".html";
      const s = await stat(file);
      if (!s.isFile()) throw new Error("not a file");
      const headers = {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": /^[/\\]_/.test(p) ? "public, max-age=31536000, immutable" : "no-cache",
        vary: "accept-encoding",
      };
      const accepts = String(req.headers["accept-encoding"] ?? "");
      let body = file;
      if (/\bbr\b/.test(accepts) && existsSync(file + ".br")) { body = file + ".br"; headers["content-encoding"] = "br"; }
      else if (/\bgzip\b/.test(accepts) && existsSync(file + ".gz")) { body = file + ".gz"; headers["content-encoding"] = "gzip"; }
      const data = await readFile(body);
      headers["content-length"] = data.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : data);
    } catch {
      if (pathname.startsWith(base) && existsSync(notFound)) {
        const data = await readFile(notFound);
        res.writeHead(404, { "content-type": TYPES[".html"], "cache-control": "no-cache", "content-length": data.length });
        res.end(req.method === "HEAD" ? undefined : data);
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return { origin, url: origin + base, close: () => new Promise((r) => server.close(r)) };
}

/** Launches headless Chromium (Debian's, via playwright-core). */
export async function launch() {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const { chromium } = await import("playwright-core"); // here, not at the top: the build and serve helpers stay light to import
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/**
 * Opens `url`, waits until every cell has settled (no loading indicators, all
 * data-check outputs decided) and returns the problems found, the page's links
 * (absolute URLs of every <a href>) and the ids an address's #fragment can name.
 * Options: `screenshot` (path of a full-page PNG); `width`; `expectChecks`;
 * `status` (the HTTP status the page must answer with, default 200);
 * `contrast`: audit text and figure contrast (scripts/contrast.mjs) in the
 * light scheme; `dark`: a path for a full-page PNG in the dark scheme, taken
 * after switching the page to `prefers-color-scheme: dark` in place (as a
 * reader's system setting changes; cells that read Framework's `dark` run
 * again) and auditing contrast again there.
 */
export async function checkPage(browser, url, { screenshot, timeoutMs = 120_000, width = 1280, expectChecks = [], status: expectStatus = 200, contrast = false, dark } = {}) {
  const origin = new URL(url).origin;
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: "light" });
  const consoleErrors = [];
  const outside = [];
  const failedRequests = [];
  page.on("console", (m) => {
    // Chromium logs a status >= 400 as a console error too: it is reported once, as a failed request.
    if (m.type() === "error" && !/^Failed to load resource: the server responded with a status of \d+/.test(m.text())) consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => { if (!outside.includes(r.url())) failedRequests.push(`${r.url()} (${r.failure()?.errorText ?? "failed"})`); });
  page.on("response", (r) => {
    const main = r.request().isNavigationRequest() && r.request().frame() === page.mainFrame();
    if (r.status() >= 400 && !(main && r.status() === expectStatus)) failedRequests.push(`${r.url()} (HTTP ${r.status()})`);
  });
  await page.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith(origin) || u.startsWith("data:") || u.startsWith("blob:")) return route.continue();
    outside.push(u);
    return route.abort();
  });
  const response = await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
  const status = response?.status() ?? 0;
  const deadline = Date.now() + timeoutMs;
  // Settled: no cell shows a loading indicator, no data-check is still undecided (data-pass other
  // than "true"/"false"), and nothing changed over several consecutive polls spanning at least a
  // second. Counting polls, not only time, keeps a main-thread freeze (a kernel build) from passing
  // for quiet. After the last button press, the expected checks must also be present.
  const settle = async (expected = []) => {
    let last = "";
    let stableSince = Date.now();
    let stablePolls = 0;
    while (Date.now() < deadline) {
      const { loading, checks } = await page.evaluate(() => ({
        loading: document.querySelectorAll("observablehq-loading, .observablehq--loading").length,
        checks: [...document.querySelectorAll("[data-check]")].map((e) => `${e.getAttribute("data-check")}=${e.getAttribute("data-pass")}`).join(","),
      }));
      const undecided = checks.split(",").filter((c) => c && !/=(true|false)$/.test(c)).length;
      const missing = expected.filter((n) => !checks.split(",").some((c) => c.startsWith(`${n}=`))).length;
      if (checks !== last || loading > 0 || undecided > 0 || missing > 0) { last = checks; stableSince = Date.now(); stablePolls = 0; }
      else if (++stablePolls >= 4 && Date.now() - stableSince >= 1000) return true;
      await page.waitForTimeout(250);
    }
    return false;
  };
  // A reader scrolls through: figures drawn as they come near the screen (src/components/lazy.js)
  // and blocks laid out only near it (content-visibility) are all drawn before anything is checked.
  const scrollThrough = async () => {
    for (let y = 0; ; y += 700) {
      const bottom = await page.evaluate((y) => { window.scrollTo(0, y); return y >= document.documentElement.scrollHeight - window.innerHeight; }, y);
      await page.waitForTimeout(60);
      if (bottom || Date.now() > deadline) break;
    }
    await page.evaluate(() => window.scrollTo(0, 0));
  };
  let settled = await settle();
  await scrollThrough();
  settled = (await settle()) && settled;
  // Calculators: their results stay in view while an input changes (scripts/calculator-check.mjs).
  const calculators = await calculatorProblems(page, { width, settle: () => settle() });
  // Skip links and, on a phone, the section navigation (scripts/phone-nav-check.mjs).
  const navigation = status === 200 ? await navigationProblems(page, { width }) : [];
  // Buttons marked data-e2e-click start checks a reader runs on demand (e.g. a GPU run): press each once.
  const clicks = await page.locator("[data-e2e-click]").all();
  for (const [i, b] of clicks.entries()) {
    await b.click({ timeout: 10_000 }).catch((e) => consoleErrors.push(`could not click ${b}: ${e.message}`));
    settled = (await settle(i === clicks.length - 1 ? expectChecks : [])) && settled;
  }
  const { cellErrors, checks, title, layout, links, ids } = await page.evaluate(() => ({
    title: document.title,
    links: [...new Set([...document.querySelectorAll("a[href]")].map((a) => a.href))],
    ids: [...document.querySelectorAll("[id], a[name]")].map((e) => e.id || e.getAttribute("name")),
    cellErrors: [...document.querySelectorAll(".observablehq--error")].map((e) => e.textContent?.trim().slice(0, 500) ?? ""),
    checks: [...document.querySelectorAll("[data-check]")].map((e) => ({ name: e.getAttribute("data-check"), pass: e.getAttribute("data-pass"), text: e.textContent?.trim().slice(0, 300) })),
    layout: (() => {
      const out = [];
      const where = (el) => {
        const h = [...document.querySelectorAll("h1, h2, h3")].filter((x) => x.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
        return h ? ` (after heading "${h.textContent.trim().slice(0, 60)}")` : "";
      };
      const doc = document.documentElement;
      if (doc.scrollWidth > window.innerWidth + 1) {
        // the widest element that sticks out, to say what to fix
        // the outermost element that sticks out and is not inside a box that scrolls or clips
        const clips = (e) => ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(e).overflowX);
        const escapes = (e) => {
          if (e.getBoundingClientRect().right <= window.innerWidth + 1) return false;
          for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (clips(a)) return false;
          return true;
        };
        // or else an element whose own text runs out of it (a long unbreakable word)
        const culprit = [...document.querySelectorAll("body *")].find((e) => escapes(e) && !(e.parentElement && e.parentElement !== document.body && escapes(e.parentElement)))
          ?? [...document.querySelectorAll("#observablehq-main *")].find((e) => getComputedStyle(e).overflowX === "visible" && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && ![...e.children].some((c) => c.scrollWidth > e.clientWidth));
        out.push(`the page scrolls horizontally: ${doc.scrollWidth} px wide in a ${window.innerWidth} px window${culprit ? `; e.g. <${culprit.tagName.toLowerCase()}${culprit.className && typeof culprit.className === "string" ? ` class="${culprit.className.slice(0, 60)}"` : ""}> ("${culprit.textContent.trim().slice(0, 50)}…") ends at ${Math.round(culprit.getBoundingClientRect().left + culprit.scrollWidth)} px${where(culprit)}` : ""}`);
      }
      for (const cell of document.querySelectorAll("td, th")) {
        if (cell.scrollWidth > cell.clientWidth + 1 && cell.getClientRects().length) out.push(`table cell "${cell.textContent.trim().slice(0, 60)}" overflows its box (${cell.scrollWidth} > ${cell.clientWidth} px)${where(cell)}`);
      }
      for (const r of document.querySelectorAll('input[type="range"]')) {
        if (!r.getAttribute("aria-label") && !r.getAttribute("aria-labelledby") && !(r.id && document.querySelector(`label[for="${CSS.escape(r.id)}"]`))) out.push(`a range slider has no accessible name${where(r)}`);
      }
      for (const box of document.querySelectorAll("#observablehq-main *")) {
        if (box.scrollWidth <= box.clientWidth + 1 || box.tabIndex >= 0 || box.querySelector("a[href], button, input, select, textarea, [tabindex]")) continue;
        const o = getComputedStyle(box).overflowX;
        if (o === "auto" || o === "scroll") out.push(`a box that scrolls sideways (<${box.tagName.toLowerCase()}>) cannot be reached from the keyboard${where(box)}`);
      }
      const plain = [...document.querySelectorAll("#observablehq-main :is(p, li, td, th, dd, blockquote, figcaption) a[href]")].filter((a) => !getComputedStyle(a).textDecorationLine.includes("underline"));
      if (plain.length) out.push(`${plain.length} links in running text are told from the text by colour only (not underlined), e.g. "${plain[0].textContent.trim().slice(0, 40)}"`);
      // touch targets: radio buttons and checkboxes whose centres are less than 24 px apart (WCAG 2.5.8)
      const boxes = [...document.querySelectorAll('#observablehq-main input[type="radio"], #observablehq-main input[type="checkbox"]')].map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0);
      const close = boxes.filter((a, i) => boxes.some((b, j) => j !== i && Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2) < 24 && (a.width < 24 || a.height < 24))).length;
      if (close) out.push(`${close} radio buttons or checkboxes sit closer than 24 px to another (touch targets)`);
      // A block that keeps room for its cells (.keeps-room, src/style.css) must not keep more than it
      // holds once they are in: a stale --room is a blank gap. Its room is the height at 1350 px.
      if (window.innerWidth >= 1000) for (const box of document.querySelectorAll("#observablehq-main .keeps-room")) {
        const room = parseFloat(getComputedStyle(box).minHeight);
        const top = box.getBoundingClientRect().top;
        const held = Math.max(0, ...[...box.children].map((k) => k.getBoundingClientRect().bottom + parseFloat(getComputedStyle(k).marginBottom) - top));
        if (room > held + 24) out.push(`a block keeps ${Math.round(room)} px of room (--room) for ${Math.round(held)} px of content: a blank gap of ${Math.round(room - held)} px; set --room to ${Math.round(held)}px${where(box)}`);
      }
      const undrawn = document.querySelectorAll(".lazy-figure:empty").length;
      if (undrawn) out.push(`${undrawn} figure${undrawn > 1 ? "s were" : " was"} never drawn after scrolling through the page (src/components/lazy.js)`);
      const g = document.querySelectorAll("svg g[aria-label]:not([role])").length;
      if (g) out.push(`${g} SVG <g> elements carry aria-label without a role`);
      if (document.documentElement.getAttribute("lang") !== "en") out.push(`<html> has no lang="en"`);
      if (!document.querySelector('meta[name="description"]')?.getAttribute("content")) out.push("no meta description");
      if (/maximum-scale|user-scalable/.test(document.querySelector('meta[name="viewport"]')?.getAttribute("content") ?? "")) out.push("the viewport blocks zoom");
      return out;
    })(),
  }));
  // A full-page screenshot shows the whole page at once, as no reader's screen does: blocks the
  // browser skips off screen (content-visibility: auto, src/style.css) would come out blank.
  // (Figures need nothing: the reader has scrolled past them all, and lazy.js redraws a figure
  // it has drawn once at once when its cell runs again, as it does while the screenshot is taken.)
  await page.addStyleTag({ content: "#observablehq-main > * { content-visibility: visible !important; }" });
  const contrastFailures = { light: contrast || dark ? await page.evaluate(contrastAudit) : [], dark: [] };
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  if (dark) {
    await page.emulateMedia({ colorScheme: "dark" });
    settled = (await settle()) && settled;
    await scrollThrough(); // cells that read `dark` ran again: their figures are drawn anew as they come near
    settled = (await settle()) && settled;
    contrastFailures.dark = await page.evaluate(contrastAudit);
    const darkErrors = await page.evaluate(() => [...document.querySelectorAll(".observablehq--error")].map((e) => `(dark) ${e.textContent?.trim().slice(0, 500) ?? ""}`));
    cellErrors.push(...darkErrors);
    await page.screenshot({ path: dark, fullPage: true });
  }
  await page.close();
  return { url, width, status, expectStatus, title, settled, clicked: clicks.length, cellErrors, consoleErrors, failedRequests, outside, checks, layout, calculators, navigation, links, ids, contrast: contrastFailures };
}

const contrastLine = (scheme, c) => `contrast (${scheme}): ${c.kind} ${c.fg} on ${c.bg} is ${c.ratio}:1, needs ${c.need}:1 — "${c.text}"${c.count > 1 ? ` and ${c.count - 1} more alike` : ""} ${c.where}`;

/**
 * What a checkPage result shows that fails no check: the contrast of figures in
 * the light scheme (e.g. Plot's default palette on white, white labels on
 * yellow bars: issue 9's figures, not yet a rule), printed so that it is seen.
 * Text contrast in both schemes, and what the dark scheme breaks in figures,
 * are problems (problemsOf).
 */
export function notesOf(r) {
  return (r.contrast?.light ?? []).filter((c) => c.kind !== "text").map((c) => contrastLine("light", c));
}

/** Human-readable list of problems of a checkPage result (empty when the page is clean). */
export function problemsOf(r) {
  const p = [];
  if (r.status !== (r.expectStatus ?? 200)) p.push(`HTTP ${r.status}`);
  if (!r.settled) p.push("cells still loading after the time-out");
  for (const e of r.cellErrors) p.push(`cell error: ${e}`);
  for (const e of r.consoleErrors) p.push(`console error: ${e}`);
  for (const u of r.outside) p.push(`request to another origin: ${u}`);
  for (const u of r.failedRequests ?? []) p.push(`failed request: ${u}`);
  // Text in either scheme; in the dark scheme, every pair of colours that fails there and not in
  // the light one (what dark mode breaks). The same failure in both schemes is the light one's.
  const light = r.contrast?.light ?? [];
  for (const c of light) if (c.kind === "text") p.push(contrastLine("light", c));
  for (const c of r.contrast?.dark ?? []) if (!light.some((l) => l.kind === c.kind && l.fg === c.fg && l.bg === c.bg)) p.push(contrastLine("dark", c));
  for (const l of r.layout ?? []) p.push(`at ${r.width} px: ${l}`);
  for (const c of r.calculators ?? []) p.push(`at ${r.width} px: ${c}`);
  for (const n of r.navigation ?? []) p.push(`at ${r.width} px: ${n}`);
  for (const c of r.checks) if (c.pass !== "true") p.push(`data-check ${c.name} did not pass (data-pass="${c.pass}"; it must be the string "true"): ${c.text}`);
  return p;
}
