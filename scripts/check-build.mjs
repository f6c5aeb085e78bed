// Checks a built site (npm test runs it after the build; the e2e run checks
// the same pages live in Chromium):
//   node scripts/check-build.mjs [dir]      (default dist)
// - every page: <html lang="en">, zoom allowed, no <label> inside the sidebar
//   list, a meta description, the favicon link, Inputs' stylesheet, the
//   accessibility script (components/a11y.js), a .br and a .gz copy;
// - /favicon.ico is an ICO file;
// - the home page's chapter list is in the HTML (drawn at build time);
// - the notes page's errata table and the chapter pages' correction boxes
//   name the same corrections;
// - no page loads more than MAX_MODULES JavaScript modules on open (pages
//   import lib/ and Plot through src/bundles: about 11; one file per lib/
//   and d3 module was 53–109, scripts/page-weight.mjs prints the figures).
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { pageWeight } from "./page-weight.mjs";

/** Most JavaScript modules a page may load on open (Framework's client, runtime and stdlib, the accessibility script, Inputs and htl, the components, the page's bundle and Plot's: 11 today). */
export const MAX_MODULES = 16;

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? (e.name.startsWith("_") ? [] : htmlFiles(p)) : e.name.endsWith(".html") ? [p] : [];
  });
}

/** The problems of the build in `dir` (empty when it is good). */
export function checkBuild(dir = "dist") {
  const problems = [];
  const pages = htmlFiles(dir);
  if (pages.length === 0) return [`${dir}: no pages (build first)`];
  const boxes = new Set();
  for (const f of pages) {
    const name = relative(dir, f);
    const html = readFileSync(f, "utf8");
    const p = (msg) => problems.push(`${name}: ${msg}`);
    if (!/<html lang="en"/.test(html)) p('no <html lang="en">');
    const viewport = /<meta name="viewport" content="([^"]*)"/.exec(html)?.[1];
    if (viewport === undefined || /maximum-scale|user-scalable/.test(viewport)) p(`the viewport blocks zoom or is missing (${viewport})`);
    if (/<ol>\s*<label/.test(html)) p("a <label> inside the sidebar's <ol>");
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
  const dir = process.argv[2] ?? "dist";
  const problems = checkBuild(dir);
  for (const p of problems) console.log(`✗ ${p}`);
  console.log(problems.length ? `${problems.length} problems in ${dir}` : `${dir}: every page checked, clean`);
  process.exit(problems.length ? 1 : 0);
}
