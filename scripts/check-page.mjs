// Usage: node scripts/check-page.mjs <slug> [<slug> …] [--width=390] [--dist=DIR] [--fresh-data]
// Builds the site into a private folder, opens each page in headless Chromium,
// prints cell errors, console errors, outside requests and data-checks, and
// writes a full-page screenshot to /tmp/page-<slug>.png (--width=390: /tmp/page-<slug>-390.png). Exit 1 on a problem.
// Data loaders' cached output is reused unless --fresh-data is given.
// --dist=DIR checks an existing build (npm run build) instead of building.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite, serve, launch, checkPage, problemsOf } from "./browser.mjs";

const slugs = process.argv.slice(2).filter((a) => !a.startsWith("--"));
// --width=390 opens the pages at a phone's width (screenshot /tmp/page-<slug>-390.png).
const width = Number(process.argv.find((a) => a.startsWith("--width="))?.slice(8) ?? 1280);
if (slugs.length === 0) { console.error("usage: node scripts/check-page.mjs <slug> [<slug> …]   (use index for the home page)"); process.exit(2); }
const dist = process.argv.find((a) => a.startsWith("--dist="))?.slice(7);
const out = dist ?? mkdtempSync(join(tmpdir(), "course-site-"));
try {
  if (!dist) {
    console.log(`building into ${out} …`);
    buildSite(out, { freshData: process.argv.includes("--fresh-data") });
  }
  const server = await serve(out);
  const browser = await launch();
  let bad = 0;
  for (const slug of slugs) {
    const shot = width === 1280 ? `/tmp/page-${slug}.png` : `/tmp/page-${slug}-${width}.png`;
    const r = await checkPage(browser, `${server.url}/${slug === "index" ? "" : slug}`, { screenshot: shot, width });
    const problems = problemsOf(r);
    console.log(`\n${slug}: "${r.title}" ${problems.length ? "PROBLEMS" : "clean"} · screenshot ${shot}`);
    for (const c of r.checks) console.log(`  data-check ${c.name}: ${c.pass} — ${c.text}`);
    for (const p of problems) console.log(`  ✗ ${p}`);
    bad += problems.length ? 1 : 0;
  }
  await browser.close();
  await server.close();
  process.exitCode = bad ? 1 : 0;
} finally {
  if (!dist) rmSync(out, { recursive: true, force: true });
}
