// The step after `observable build` (npm run build, the e2e run, Lighthouse and
// check-page all call it): what Framework 1.13's page template gets wrong and
// no option can set, then precompressed copies of every text file, as a static
// host serves them.
//   node scripts/postbuild.mjs [dir]        (default dist)
// - <html lang="en"> (the template has no lang);
// - the viewport without maximum-scale=1 (it blocks pinch-zoom);
// - the sidebar's close <label> moved out of its <ol> (a list holds only <li>);
// - the search box named (aria-label);
// - skip links and a section navigation for phones (scripts/navigation.mjs);
// - the page's cells paced: each yields to the browser once the task has run 4 ms
//   (scripts/pace.mjs: the cells of a page open in short tasks, not one long one);
// - /favicon.ico written (the pages link favicon.svg; anything asking for
//   /favicon.ico gets the same mark, drawn here);
// - sitemap.xml: the canonical URL of every page (observablehq.config.ts writes
//   them from COURSE_SITE_URL and COURSE_BASE: scripts/site.ts), in the
//   sidebar's order (lib/chapters.ts); without COURSE_SITE_URL no page has a
//   canonical link and no sitemap is written;
// - <file>.gz and <file>.br beside every text file.
// test/site.test.ts checks each on a build.
import { readdirSync, readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { join, extname, relative } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { pathToFileURL } from "node:url";
import { paceCells } from "./pace.mjs";
import { addNavigation } from "./navigation.mjs";

const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".svg", ".txt", ".csv", ".ico", ".map", ".xml"]);

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The page template's fixes, on one HTML document. */
export function fixHtml(html) {
  return addNavigation(paceCells(html))
    .replace(/<html(?![^>]*\blang=)([^>]*)>/, '<html lang="en"$1>')
    .replace(/(<meta name="viewport" content=")([^"]*)(")/, (_, a, content, b) => a + content.split(/\s*,\s*/).filter((p) => !/^(maximum-scale|user-scalable)=/.test(p)).join(", ") + b)
    .replace(/(<ol>\s*)(<label id="observablehq-sidebar-close"[^>]*><\/label>\s*)/, "$2$1")
    .replace(/<div id="observablehq-search"><input type="search" placeholder="Search">/, '<div id="observablehq-search"><input type="search" placeholder="Search" aria-label="Search the course">');
}

/**
 * A 32 × 32 ICO (one 32-bit BMP image) of the site's mark: a falling loss
 * curve, white on the theme's blue, the same as src/favicon.svg.
 */
export function faviconIco() {
  const n = 32;
  const px = Buffer.alloc(n * n * 4);
  const inside = (x, y) => {
    // rounded square, radius 6
    const r = 6, cx = Math.min(Math.max(x, r), n - r), cy = Math.min(Math.max(y, r), n - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  // the curve: a decaying exponential from (5, 6) to (27, 25), 3 px wide
  const curve = [];
  for (let t = 5; t <= 27; t += 0.25) curve.push([t, 25 - 19 * Math.exp(-(t - 5) / 5)]);
  const onCurve = (x, y) => curve.some(([cx, cy]) => (x - cx) ** 2 + (y - cy) ** 2 <= 2.25);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const row = n - 1 - y; // BMP rows run bottom-up
      const o = (row * n + x) * 4;
      if (!inside(x + 0.5, y + 0.5)) continue; // transparent
      const white = onCurve(x + 0.5, y + 0.5);
      const [r, g, b] = white ? [255, 255, 255] : [0x3b, 0x5f, 0xc0];
      px[o] = b; px[o + 1] = g; px[o + 2] = r; px[o + 3] = 255;
    }
  }
  const mask = Buffer.alloc((n * n) / 8); // AND mask, all 0: alpha decides
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0); header.writeInt32LE(n, 4); header.writeInt32LE(n * 2, 8);
  header.writeUInt16LE(1, 12); header.writeUInt16LE(32, 14);
  header.writeUInt32LE(px.length + mask.length, 20);
  const image = Buffer.concat([header, px, mask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(0, 0); dir.writeUInt16LE(1, 2); dir.writeUInt16LE(1, 4);
  dir.writeUInt8(n, 6); dir.writeUInt8(n, 7); dir.writeUInt8(0, 8); dir.writeUInt8(0, 9);
  dir.writeUInt16LE(1, 10); dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(image.length, 14); dir.writeUInt32LE(22, 18);
  return Buffer.concat([dir, image]);
}

/** The canonical URL of a built page, or null. */
export function canonicalOf(html) {
  return /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1] ?? null;
}

/** The base path a build was made for: the <base href> Framework writes into 404.html (config `base`), else "/". */
export function baseOf(dir) {
  const f = join(dir, "404.html");
  return (existsSync(f) && /<base href="([^"]+)">/.exec(readFileSync(f, "utf8"))?.[1]) || "/";
}

const escXml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * sitemap.xml (sitemaps.org 0.9) of the built pages in `dir`: each page's
 * canonical URL, the home page first, then the sidebar's order (the chapters of
 * lib/chapters.ts, then the other listed pages), then any unlisted page by name;
 * the 404 page is left out. Returns null when no page has a canonical link.
 */
export function sitemapXml(dir) {
  const pages = files(dir).filter((f) => f.endsWith(".html") && !relative(dir, f).startsWith("_") && relative(dir, f) !== "404.html");
  const urls = new Map(); // page path ("index", "precision") → canonical URL
  for (const f of pages) {
    const url = canonicalOf(readFileSync(f, "utf8"));
    if (url) urls.set(relative(dir, f).replace(/\.html$/, ""), url);
  }
  if (urls.size === 0) return null;
  const index = existsSync(join(dir, "index.html")) ? readFileSync(join(dir, "index.html"), "utf8") : "";
  const sidebar = /<nav id="observablehq-sidebar">([\s\S]*?)<\/nav>/.exec(index)?.[1] ?? "";
  const order = ["index", ...[...sidebar.matchAll(/<a href="\.\/([^"#?]*)"/g)].map((m) => m[1] || "index")];
  const rank = (p) => (order.includes(p) ? order.indexOf(p) : order.length);
  const sorted = [...urls.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${sorted.map((p) => `  <url><loc>${escXml(urls.get(p))}</loc></url>`).join("\n")}
</urlset>
`;
}

/** Applies the fixes to every page of `dir` and writes the compressed copies; returns counts. */
export function postBuild(dir = "dist") {
  if (!existsSync(join(dir, "index.html"))) throw new Error(`${dir}/index.html not found: build the site first (npx observable build)`);
  let pages = 0;
  for (const f of files(dir).filter((f) => f.endsWith(".html"))) {
    const before = readFileSync(f, "utf8");
    const after = fixHtml(before);
    if (after !== before) writeFileSync(f, after);
    pages++;
  }
  writeFileSync(join(dir, "favicon.ico"), faviconIco());
  const sitemap = sitemapXml(dir);
  if (sitemap) writeFileSync(join(dir, "sitemap.xml"), sitemap);
  else rmSync(join(dir, "sitemap.xml"), { force: true });
  let compressed = 0;
  for (const f of files(dir)) {
    if (!COMPRESSIBLE.has(extname(f))) continue;
    const data = readFileSync(f);
    writeFileSync(f + ".gz", gzipSync(data, { level: 9 }));
    writeFileSync(f + ".br", brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    compressed++;
  }
  return { pages, compressed, sitemap: sitemap !== null };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = process.argv[2] ?? "dist";
  const t0 = Date.now();
  const { pages, compressed, sitemap } = postBuild(dir);
  console.log(`postbuild: ${pages} pages fixed, ${compressed} files precompressed (gzip, brotli), ${sitemap ? "sitemap.xml written" : "no sitemap.xml (no COURSE_SITE_URL: no canonical links)"}, base path ${baseOf(dir)}; it took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
