// Checks a built site (the e2e run runs it after its build, then checks the
// same pages live in Chromium; the deploy workflow runs it before publishing):
//   node scripts/check-build.mjs [dir] [--base=/llm-course/]      (default dist)
// - every page: <html lang="en">, zoom allowed, no <label> inside the sidebar
//   list, a meta description, the favicon link, Inputs' stylesheet, the
//   accessibility script (components/a11y.js), a .br and a .gz copy, its cells
//   paced (scripts/pace.mjs), a skip link, and a Sections list for a phone when it
//   has a table of contents (scripts/navigation.mjs);
// - /favicon.ico is an ICO file;
// - the home page's chapter list is in the HTML (drawn at build time);
// - the notes page's errata table and the chapter pages' correction boxes
//   name the same corrections;
// - publishing under a base path (issue 14): no page refers to an absolute
//   path ("/…" leaves the prefix); 404.html exists, with a <base href> equal to
//   the expected base (--base=/llm-course/) and no canonical link; either every
//   other page has one canonical link, absolute, ending in base + its own path,
//   and sitemap.xml lists exactly those URLs, or (built without
//   COURSE_SITE_URL) no page has one and there is no sitemap.xml.
//   node scripts/check-build.mjs dist --base=/llm-course/
// - no page loads more than MAX_MODULES JavaScript modules on open (pages
//   import lib/ and Plot through src/bundles: about 11; one file per lib/
//   and d3 module was 53–109, scripts/page-weight.mjs prints the figures).
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { canonicalOf, baseOf } from "./postbuild.mjs";
import { pageWeight } from "./page-weight.mjs";

/** Most JavaScript modules a page may load on open (Framework's client, runtime and stdlib, the accessibility script, Inputs and htl, the components, the page's bundle and Plot's: 11 today). */
export const MAX_MODULES = 16;

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? (e.name.startsWith("_") ? [] : htmlFiles(p)) : e.name.endsWith(".html") ? [p] : [];
  });
}

/**
 * The problems of the build in `dir` (empty when it is good).
 * @param {string} dir
 * @param {{base?: string}} [expect] the base path the build must have been made for (default: any)
 */
export function checkBuild(dir = "dist", { base } = {}) {
  const problems = [];
  const pages = htmlFiles(dir);
  if (pages.length === 0) return [`${dir}: no pages (build first)`];
  const boxes = new Set();
  const canonicals = new Map(); // page → canonical URL
  const built = existsSync(join(dir, "404.html")) ? baseOf(dir) : (base ?? "/");
  if (!existsSync(join(dir, "404.html"))) problems.push("404.html: missing (src/404.md)");
  else if (base && built !== base) problems.push(`404.html: <base href="${built}">, expected "${base}" (COURSE_BASE)`);
  for (const f of pages) {
    const name = relative(dir, f);
    const html = readFileSync(f, "utf8");
    const p = (msg) => problems.push(`${name}: ${msg}`);
    const absolute = [...html.replace(/<base href="[^"]*">/, "").matchAll(/\s(?:href|src|srcset|action)="(\/(?!\/)[^"]*)"/g)].map((m) => m[1]);
    if (absolute.length) p(`refers to absolute paths, which leave the base path: ${[...new Set(absolute)].slice(0, 5).join(", ")}`);
    const canonical = [...html.matchAll(/<link rel="canonical" href="([^"]+)">/g)].map((m) => m[1]);
    if (name === "404.html") {
      if (canonical.length) p("the 404 page has a canonical link");
    } else if (canonical.length > 1) p(`${canonical.length} canonical links`);
    else if (canonical.length === 1) {
      const want = built + name.replace(/\.html$/, "").replace(/(^|\/)index$/, "$1");
      let url = null;
      try { url = new URL(canonical[0]); } catch { /* reported below */ }
      if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== want) p(`canonical link ${canonical[0]} is not an absolute URL ending in ${want}`);
      canonicals.set(name, canonical[0]);
    }
    if (!/<html lang="en"/.test(html)) p('no <html lang="en">');
    const viewport = /<meta name="viewport" content="([^"]*)"/.exec(html)?.[1];
    if (viewport === undefined || /maximum-scale|user-scalable/.test(viewport)) p(`the viewport blocks zoom or is missing (${viewport})`);
    if (/<ol>\s*<label/.test(html)) p("a <label> inside the sidebar's <ol>");
    if (html.includes('<main id="observablehq-main"') && !html.includes('<a class="skip-link" href="#observablehq-main">')) p("no skip link to the content (scripts/navigation.mjs): the post-build step did not run");
    if (/<aside id="observablehq-toc"/.test(html) && /<li class="observablehq-secondary-link">[\s\S]*<li class="observablehq-secondary-link">/.test(html) && !html.includes('class="phone-toc"')) p("a table of contents but no Sections list for a phone (scripts/navigation.mjs)");
    if (/import \{define\} from/.test(html)) p("its cells are not paced (scripts/pace.mjs): the post-build step did not run, or Framework's import of define changed");
    if (name === "404.html") continue;
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
    if (!description || description.length < 20) p(`no meta description (${description ?? "none"})`);
    if (!/<link rel="icon" href="[^"]+\.svg"/.test(html)) p("no favicon link");
    if (!/<link rel="stylesheet" type="text\/css" href="[^"]*_observablehq\/stdlib\/inputs\.[0-9a-f]+\.css">/.test(html)) p("Inputs' stylesheet is not linked");
    if (!/<script type="module" src="[^"]*components\/a11y\.[0-9a-f]+\.js"><\/script>/.test(html)) p("components/a11y.js is not loaded");
    for (const ext of [".br", ".gz"]) if (!existsSync(f + ext)) p(`no precompressed ${ext} copy`);
    const { modules, moduleList } = pageWeight(dir, f);
    if (modules > MAX_MODULES) p(`loads ${modules} JavaScript modules on open (at most ${MAX_MODULES}: import lib/ through src/bundles, see CONTRIBUTING.md): ${moduleList.filter((m) => !m.startsWith("_observablehq/")).slice(0, 8).join(", ")}, …`);
    for (const m of html.matchAll(/<div class="warning" id="correction-([^"]+)"/g)) boxes.add(`${name.replace(/\.html$/, "")}#correction-${m[1]}`);
  }
  const sitemap = join(dir, "sitemap.xml");
  const others = pages.filter((f) => relative(dir, f) !== "404.html").length;
  if (canonicals.size > 0 && canonicals.size < others) problems.push(`${others - canonicals.size} of ${others} pages have no canonical link (the others do)`);
  if (canonicals.size === 0 && existsSync(sitemap)) problems.push("sitemap.xml: written, but no page has a canonical link");
  if (canonicals.size > 0) {
    if (!existsSync(sitemap)) problems.push("sitemap.xml: missing (pages have canonical links)");
    else {
      const xml = readFileSync(sitemap, "utf8");
      const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, "&"));
      if (!xml.includes('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"')) problems.push("sitemap.xml: not a sitemaps.org 0.9 urlset");
      const want = [...canonicals.values()];
      for (const u of want) if (!locs.includes(u)) problems.push(`sitemap.xml: no <loc> for ${u}`);
      for (const u of locs) if (!want.includes(u)) problems.push(`sitemap.xml: <loc> ${u} is not the canonical URL of a page`);
      if (new Set(locs).size !== locs.length) problems.push("sitemap.xml: a URL is listed twice");
    }
  }
  const ico = join(dir, "favicon.ico");
  if (!existsSync(ico) || readFileSync(ico).readUInt32BE(0) !== 0x00000100) problems.push("favicon.ico: missing or not an ICO file");
  const index = join(dir, "index.html");
  if (existsSync(index) && !/<ol class="chapter-map">\s*<li/.test(readFileSync(index, "utf8"))) problems.push("index.html: the chapter list is not in the built HTML");
  const notes = join(dir, "notes.html");
  if (!existsSync(notes)) problems.push("notes.html: missing");
  else {
    const rows = new Set([...readFileSync(notes, "utf8").matchAll(/<a href="\.\/([^"#]+)#correction-([^"]+)"/g)].map((m) => `${m[1]}#correction-${m[2]}`));
    for (const b of boxes) if (!rows.has(b)) problems.push(`notes.html: the errata table has no row for the box ${b}`);
    for (const r of rows) if (!boxes.has(r)) problems.push(`notes.html: the errata row ${r} has no box on its page`);
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "dist";
  const base = process.argv.find((a) => a.startsWith("--base="))?.slice(7);
  const problems = checkBuild(dir, { base });
  for (const p of problems) console.log(`✗ ${p}`);
  console.log(problems.length ? `${problems.length} problems in ${dir}` : `${dir}: every page checked, clean`);
  process.exit(problems.length ? 1 : 0);
}
