// Usage: node scripts/check-page.mjs <slug> [<slug> …] [--width=390] [--dark] [--out=DIR] [--dist=DIR] [--fresh-data]
// Builds the site into a private folder, opens each page in headless Chromium,
// prints cell errors, console errors, failed and outside requests and
// data-checks, and writes a full-page screenshot of each page into a folder
// of its own (printed; several people can check pages at once):
//   <out>/<slug>.png, at --width=390 <out>/<slug>-390.png, with --dark also
//   <out>/<slug>-dark.png (the page switched to prefers-color-scheme: dark) and
//   the contrast audit of text and figures in both schemes (scripts/contrast.mjs).
// --out=DIR    the folder for the screenshots (default: a new /tmp/check-page-XXXXXX/)
// --dist=DIR   checks an existing build (npm run build) instead of building; a build
//              made under a base path (COURSE_BASE) is served under it
// Data loaders' cached output is reused unless --fresh-data is given. Exit 1 on a problem.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSite, serve, launch, checkPage, problemsOf, notesOf } from "./browser.mjs";
import { baseOf } from "./postbuild.mjs";

const slugs = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
// --width=390 opens the pages at a phone's width.
const width = Number(flag("width") ?? 1280);
const dark = process.argv.includes("--dark");
if (slugs.length === 0) { console.error("usage: node scripts/check-page.mjs <slug> [<slug> …] [--width=390] [--dark] [--out=DIR]   (use index for the home page)"); process.exit(2); }
const dist = flag("dist");
const shots = resolve(flag("out") ?? mkdtempSync(join(tmpdir(), "check-page-")));
mkdirSync(shots, { recursive: true });
const out = dist ?? mkdtempSync(join(tmpdir(), "course-site-"));
try {
  if (!dist) {
    console.log(`building into ${out} …`);
    buildSite(out, { freshData: process.argv.includes("--fresh-data") });
  }
  const server = await serve(out, { base: baseOf(out) });
  const browser = await launch();
  let bad = 0;
  for (const slug of slugs) {
    const shot = join(shots, width === 1280 ? `${slug}.png` : `${slug}-${width}.png`);
    const darkShot = dark ? join(shots, `${slug}${width === 1280 ? "" : `-${width}`}-dark.png`) : undefined;
    const r = await checkPage(browser, new URL(slug === "index" ? "" : slug, server.url).href, { screenshot: shot, width, dark: darkShot });
    const problems = problemsOf(r);
    console.log(`\n${slug}: "${r.title}" ${problems.length ? "PROBLEMS" : "clean"} · screenshot ${shot}${darkShot ? `, dark ${darkShot}` : ""}`);
    for (const c of r.checks) console.log(`  data-check ${c.name}: ${c.pass} — ${c.text}`);
    for (const p of problems) console.log(`  ✗ ${p}`);
    for (const n of notesOf(r)) console.log(`  note: ${n}`);
    bad += problems.length ? 1 : 0;
  }
  await browser.close();
  await server.close();
  process.exitCode = bad ? 1 : 0;
} finally {
  if (!dist) rmSync(out, { recursive: true, force: true });
}
