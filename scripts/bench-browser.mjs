// npm run bench:browser [-- name …] [--entry=FILE] [--quick]
// Runs the browser benchmarks (bench/browser/*.ts) in ONE headless Chromium page
// served from 127.0.0.1 (a secure context, so WebGPU is available): gpu.js on
// WebGL2 (SwiftShader here), tfjs-webgl, WebGPU compute shaders and plain
// JavaScript loops side by side, on the same inputs. The page is bundled here with
// esbuild (gpu.js, tfjs and lib/ code in one file); each benchmark prints its
// tables through the console. Benchmarks measure and check agreement; they assert
// no time. --entry=FILE runs another module's default export (experiments).
import * as esbuild from "esbuild";
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { serve, launch } from "./browser.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DIR = join(ROOT, "bench", "browser");
const args = process.argv.slice(2);
const entryFlag = args.find((a) => a.startsWith("--entry="))?.slice(8);
const available = readdirSync(DIR).filter((f) => f.endsWith(".bench.ts")).sort().map((f) => f.replace(/\.bench\.ts$/, ""));
const wanted = args.filter((a) => !a.startsWith("--"));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length) { console.error(`no browser benchmark named ${unknown.join(", ")}; available: ${available.join(", ")}`); process.exit(2); }
const names = wanted.length ? wanted : available;
const entries = entryFlag ? [resolve(entryFlag)] : names.map((n) => join(DIR, `${n}.bench.ts`));

const out = mkdtempSync(join(tmpdir(), "bench-browser-"));
const main = entries.map((e, i) => `import b${i} from ${JSON.stringify(e)};`).join("\n") +
  `\nwindow.runBenches = async (options) => { for (const b of [${entries.map((_, i) => `b${i}`).join(", ")}]) await b(options); };\n`;
try {
  await esbuild.build({
    stdin: { contents: main, resolveDir: ROOT, sourcefile: "main.ts", loader: "ts" },
    bundle: true, format: "esm", platform: "browser", target: "es2022", outfile: join(out, "main.js"),
    define: { "process.env.NODE_ENV": '"production"' }, logLevel: "error",
    nodePaths: [join(ROOT, "node_modules")],
  });
  writeFileSync(join(out, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><link rel="icon" href="data:,"></head><body><script type="module" src="./main.js"></script></body></html>`);
  const server = await serve(out);
  const browser = await launch();
  const page = await browser.newPage();
  let failed = false;
  page.on("console", (m) => { if (m.type() === "error") failed = true; console.log(m.text()); });
  page.on("pageerror", (e) => { failed = true; console.log(`page error: ${e.message}`); });
  await page.goto(server.url, { waitUntil: "load" });
  await page.waitForFunction(() => typeof window.runBenches === "function");
  const t0 = Date.now();
  await page.evaluate((o) => window.runBenches(o), { quick: args.includes("--quick") }).catch((e) => { failed = true; console.log(`benchmark failed: ${e.message}`); });
  console.log(`(${((Date.now() - t0) / 1000).toFixed(0)} s in ${await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0])})`);
  await browser.close();
  await server.close();
  process.exitCode = failed ? 1 : 0;
} finally {
  rmSync(out, { recursive: true, force: true });
}
