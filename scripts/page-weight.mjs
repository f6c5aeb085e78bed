// What each page of a built site loads on open, from the files alone (no browser):
//   node scripts/page-weight.mjs [dir] [--json]        (default dist)
// For every page: the JavaScript modules it loads before any reader action (its
// <script type="module"> sources, its modulepreload links, which Framework writes
// for every static import of the page's cells, and everything those import
// statically), the stylesheets it links and the files its cells register
// (FileAttachment), each with its brotli size (the .br copy that
// scripts/postbuild.mjs writes, else compressed here). Dynamic imports
// (gpu.js, modules behind a button) are not counted: they load when asked.
// check-build.mjs uses pageWeight() to cap the number of modules per page.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";

function htmlPages(dir, root = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith("_") ? [] : htmlPages(p, root);
    return e.name.endsWith(".html") && e.name !== "404.html" ? [p] : [];
  });
}

const brCache = new Map();
/** Brotli size of a file: its .br copy, else compressed now at the quality postbuild uses. */
function brotliSize(file) {
  if (!brCache.has(file)) {
    const size = existsSync(file + ".br") ? readFileSync(file + ".br").length
      : brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    brCache.set(file, size);
  }
  return brCache.get(file);
}

/**
 * Static import specifiers of an ES module's source (`import … from "x"`,
 * `import "x"`, `export … from "x"`; not `import("x")` nor `import.meta`), as
 * bundlers and Framework write them. A scan, not a parser (the script stays
 * free of packages beyond Node): a string that looks like an import statement
 * would be counted too, which can only overstate a page's modules.
 */
export function staticImportsOf(source) {
  const re = /(?:^|[;}\n\r)])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?(["'])([^"'\n]+)\1/g;
  return [...source.matchAll(re)].map((m) => m[2]);
}

/** The modules, stylesheets and registered files that the page `file` of the site in `dir` loads on open. */
export function pageWeight(dir, file) {
  const html = readFileSync(file, "utf8");
  const local = (href) => (/^\w+:|^\/\//.test(href) ? null : href.startsWith("/") ? join(dir, href) : resolve(dirname(file), href));
  const seeds = [
    ...[...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]),
  ].map(local).filter(Boolean);
  // the page's inline module: its static imports count too
  for (const m of html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)) {
    for (const spec of staticImportsOf(m[1])) if (/^\.{0,2}\//.test(spec)) seeds.push(local(spec));
  }
  const modules = new Set();
  const queue = [...seeds];
  while (queue.length) {
    const m = queue.pop();
    if (modules.has(m) || !existsSync(m)) continue;
    modules.add(m);
    for (const spec of staticImportsOf(readFileSync(m, "utf8"))) if (/^\.{0,2}\//.test(spec)) queue.push(resolve(dirname(m), spec));
  }
  const stylesheets = [...html.matchAll(/<link rel="stylesheet" type="text\/css" href="([^"]+)"/g)].map((m) => local(m[1])).filter(Boolean);
  const files = [...html.matchAll(/registerFile\("[^"]*", \{[^}]*"path":"([^"]+)"/g)].map((m) => local(m[1]));
  const sum = (list) => list.reduce((n, f) => n + (existsSync(f) ? brotliSize(f) : 0), 0);
  return {
    page: relative(dir, file).replace(/\.html$/, ""),
    modules: modules.size,
    modulepreloads: [...html.matchAll(/<link rel="modulepreload"/g)].length,
    jsBrotli: sum([...modules]),
    css: stylesheets.length,
    cssBrotli: sum(stylesheets),
    files: files.length,
    filesBrotli: sum(files),
    htmlBrotli: brotliSize(file),
    moduleList: [...modules].map((m) => relative(dir, m)).sort(),
  };
}

/** pageWeight of every page of the site in `dir`, sorted by page. */
export function siteWeight(dir = "dist") {
  return htmlPages(dir).map((f) => pageWeight(dir, f)).sort((a, b) => a.page.localeCompare(b.page));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "dist";
  const rows = siteWeight(dir);
  if (process.argv.includes("--json")) console.log(JSON.stringify(rows, null, 2));
  else {
    const kib = (n) => (n / 1024).toFixed(1);
    console.log(`On page open, ${dir} (brotli KiB; modules = JS files loaded before any reader action)`);
    console.log("| page | JS modules | modulepreload links | JS KiB | CSS files | CSS KiB | data files | data KiB | HTML KiB |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) console.log(`| /${r.page === "index" ? "" : r.page} | ${r.modules} | ${r.modulepreloads} | ${kib(r.jsBrotli)} | ${r.css} | ${kib(r.cssBrotli)} | ${r.files} | ${kib(r.filesBrotli)} | ${kib(r.htmlBrotli)} |`);
  }
}
