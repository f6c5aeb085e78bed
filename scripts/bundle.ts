// Each page loads its lib code as ONE module, and Plot with its d3 packages as
// one more, instead of one module file per lib/ and d3 file (about 110 module
// requests a page, which a phone on a slow link pays for before first paint).
//
//   src/bundles/<page>.ts   committed: the page's imports from lib/, as
//                           `export {…} from "../../lib/…"` lines (no code)
//   src/bundles/plot.ts     committed: `export * from "@observablehq/plot"`
//   src/bundles/<name>.js   generated here with esbuild (git-ignored), from lib/
//                           as it is now; the page imports it:
//                           import {…} from "./bundles/<page>.js";
//                           import {Plot} from "./components/plot.js";
//                           (which loads ./bundles/plot.js when the first figure is drawn)
//
// observablehq.config.ts calls bundleAll() whenever Framework's CLI builds or
// previews, so `npm run build`, every buildSite() and `npm run dev` use bundles
// made from the current lib/; under `observable preview` esbuild keeps watching
// and rewrites a bundle when a file under lib/ changes, and the preview server
// then reloads the page (it watches the modules a page imports).
// gpu.js stays outside every bundle: lib imports it only from the kernel
// modules, which pages import dynamically when a kernel runs.
//
//   npx tsx scripts/bundle.ts                 write the bundles once
//   npx tsx scripts/bundle.ts --convert src/<page>.md
//       moves a page's static `./lib/…` imports into src/bundles/<page>.ts and
//       replaces them with one import of ./bundles/<page>.js; Plot's import
//       becomes ./components/plot.js. On a page converted before (new ./lib/
//       imports came back with a merge) it adds them to the same two places. (How the pages were converted; test/bundles.test.ts
//       keeps the rule.)
import * as esbuild from "esbuild";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLES = join(ROOT, "src", "bundles");
/** Packages left out of every bundle: pages load them only on demand (dynamic import), through Framework. */
export const EXTERNAL = ["gpu.js"];

/** The entry files: src/bundles/*.ts. */
export function bundleEntries(dir = BUNDLES): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.endsWith(".test.ts"))
    .sort()
    .map((f) => join(dir, f));
}

function options(dir: string, entries = bundleEntries(dir)): esbuild.BuildOptions & { write: false; metafile: true } {
  return {
    entryPoints: entries,
    outdir: dir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minifyWhitespace: true,
    minifySyntax: true,
    // COURSE_BUNDLE_NAMES=1 keeps the functions' own names, for a CPU profile (scripts/profile.mjs)
    minifyIdentifiers: process.env.COURSE_BUNDLE_NAMES !== "1",
    keepNames: true, // error messages and checks that read a function's or class's name keep working
    legalComments: "none",
    external: EXTERNAL,
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    metafile: true,
    logLevel: "silent",
  };
}

/** Writes a file only when its bytes change (a rewrite would make the preview reload), atomically. */
function writeIfChanged(path: string, contents: Uint8Array): boolean {
  if (existsSync(path) && Buffer.compare(readFileSync(path), contents) === 0) return false;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
  return true;
}

/** What is wrong with a build: a bundle that imports a left-out package at load time (gpu.js on page open). */
function problemsOf(result: esbuild.BuildResult<{ metafile: true }>): string[] {
  const problems: string[] = [];
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    for (const i of meta.imports) {
      if (i.external && i.kind === "import-statement") problems.push(`${out} imports ${i.path} statically: import it dynamically in the page, where a kernel runs`);
    }
  }
  return problems;
}

function writeOutputs(result: esbuild.BuildResult<{ write: false; metafile: true }>): string[] {
  const written: string[] = [];
  for (const f of result.outputFiles ?? []) if (writeIfChanged(f.path, f.contents)) written.push(relative(ROOT, f.path));
  return written;
}

/**
 * Builds the bundles (default: every one) in memory (nothing written): esbuild's output files and
 * metafile, and the problems found (a bundle that would load gpu.js on open).
 */
export async function buildBundles(dir = BUNDLES, entries = bundleEntries(dir)): Promise<{ result: esbuild.BuildResult<{ write: false; metafile: true }>; problems: string[] }> {
  const result = await esbuild.build(options(dir, entries));
  return { result, problems: problemsOf(result) };
}

/**
 * Writes src/bundles/<name>.js for every src/bundles/<name>.ts. With `watch`,
 * keeps rebuilding (and rewriting what changed) while the process lives.
 * Throws on a build error or when a bundle would load gpu.js on page open.
 */
export async function bundleAll({ dir = BUNDLES, watch = false, log = (s: string) => console.log(s) } = {}): Promise<void> {
  if (bundleEntries(dir).length === 0) return;
  if (!watch) {
    const { result, problems } = await buildBundles(dir);
    if (problems.length) throw new Error(`bundles: ${problems.join("; ")}`);
    const written = writeOutputs(result);
    if (written.length) log(`bundles: wrote ${written.join(", ")}`);
    return;
  }
  const ctx = await esbuild.context({
    ...options(dir),
    plugins: [{
      name: "write-changed",
      setup(build) {
        build.onEnd((result) => {
          if (result.errors.length) {
            log(`bundles: ${result.errors.map((e) => `${e.location?.file ?? ""}:${e.location?.line ?? ""} ${e.text}`).join("; ")}`);
            return;
          }
          const problems = problemsOf(result as esbuild.BuildResult<{ metafile: true }>);
          if (problems.length) { log(`bundles: ${problems.join("; ")}`); return; }
          const written = writeOutputs(result as esbuild.BuildResult<{ write: false; metafile: true }>);
          if (written.length) log(`bundles: wrote ${written.join(", ")}`);
        });
      },
    }],
  });
  // The first bundles exist before Framework serves a page. A lib/ file that does not compile is
  // reported (onEnd) and the preview still starts: the bundle is rewritten once the file is fixed.
  await ctx.rebuild().catch(() => undefined);
  await ctx.watch();
}

/** One static import statement of a page: its text and where it is. */
interface ImportStatement { text: string; start: number; end: number; names: string; spec: string }

/** The static `import {…} from "…"` statements in a page's ```js fences (multi-line ones too). */
export function staticImports(md: string): ImportStatement[] {
  const out: ImportStatement[] = [];
  for (const fence of md.matchAll(/```js\n([\s\S]*?)```/g)) {
    const base = fence.index! + fence[0].indexOf("\n") + 1;
    for (const m of fence[1].matchAll(/^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?[ \t]*\n?/gm)) {
      out.push({ text: m[0], start: base + m.index!, end: base + m.index! + m[0].length, names: m[1], spec: m[2] });
    }
  }
  return out;
}

/** Names joined by ", " in lines of at most `width` characters, each starting with `indent`. */
function wrap(names: string[], indent: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const n of names) {
    if (line && indent.length + line.length + n.length + 2 > width) { lines.push(indent + line.trimEnd()); line = ""; }
    line += `${n}, `;
  }
  lines.push(indent + line.replace(/, $/, ""));
  return lines.join("\n");
}

/**
 * Converts a page to the one-bundle rule: its static `./lib/…` imports move to
 * src/bundles/<page>.ts (as re-exports, aliases kept, the comment lines just
 * above each kept with it) and are replaced by one import of ./bundles/<page>.js;
 * `import * as Plot from "@observablehq/plot"` becomes `import {Plot} from "./components/plot.js"`
 * (Plot's bundle, loaded with the page's first figure).
 * A page converted before (it has the bundle import, and `entry` is its entry
 * file's text) keeps them: the new names join its bundle import and the new
 * re-exports are appended to the entry (after a merge that brought ./lib/ imports back).
 * Returns the new page text and the entry file's text.
 */
export function convertPage(md: string, slug: string, entry?: string): { page: string; entry: string } {
  const libImports = staticImports(md).filter((i) => i.spec.startsWith("./lib/"));
  if (libImports.length === 0) throw new Error(`${slug}: no static ./lib/ import to convert`);
  const bundleSpec = `./bundles/${slug}.js`;
  const converted = staticImports(md).some((i) => i.spec === bundleSpec);
  if (converted && entry === undefined) throw new Error(`${slug}: the page imports ${bundleSpec} already: pass its entry file's text`);
  const entryLines = entry !== undefined ? entry.replace(/\n$/, "").split("\n") : [`// The lib code that src/${slug}.md imports, bundled into one module by scripts/bundle.ts.`];
  const at = entryLines.length;
  const localNames: string[] = [];
  const MARK = "\u0000";
  let page = md;
  // From the last statement to the first, so that earlier offsets stay valid.
  for (const [k, imp] of libImports.map((imp, k) => [k, imp] as const).reverse()) {
    const specifiers = imp.names.split(",").map((s) => s.trim()).filter(Boolean);
    localNames.unshift(...specifiers.map((s) => s.split(/\s+as\s+/).at(-1)!));
    // comment lines directly above the statement travel with it
    let start = imp.start;
    const before = page.slice(0, start).split("\n");
    before.pop(); // the (empty) rest of the line before the statement
    const comments: string[] = [];
    while (before.length && /^\s*\/\//.test(before.at(-1)!)) comments.unshift(before.pop()!);
    start -= comments.reduce((n, c) => n + c.length + 1, 0);
    entryLines.splice(at, 0, ...comments, `export {${specifiers.join(", ")}} from "${imp.spec.replace(/^\.\/lib\//, "../../lib/")}";`);
    const replacement = k === 0 && !converted ? `import {${MARK}} from "${bundleSpec}";\n` : "";
    page = page.slice(0, start) + replacement + page.slice(imp.end);
  }
  const format = (names: string[]) => (names.join(", ").length <= 100 ? `{${names.join(", ")}}` : `{\n${wrap(names, "  ", 110)}\n}`);
  if (converted) {
    const old = staticImports(page).find((i) => i.spec === bundleSpec)!;
    const names = [...old.names.split(",").map((s) => s.trim()).filter(Boolean), ...localNames];
    page = page.slice(0, old.start) + `import ${format(names)} from "${bundleSpec}";\n` + page.slice(old.end);
  } else {
    page = page.replace(`{${MARK}}`, format(localNames));
  }
  page = page.replace(/^import \* as Plot from "(?:@observablehq\/plot|\.\/bundles\/plot\.js)";/m, 'import {Plot} from "./components/plot.js";');
  return { page, entry: entryLines.join("\n") + "\n" };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const k = process.argv.indexOf("--convert");
  if (k >= 0) {
    for (const file of process.argv.slice(k + 1)) {
      const slug = basename(file, ".md");
      const entryPath = join(BUNDLES, `${slug}.ts`);
      const md = readFileSync(file, "utf8");
      // a page that imports its bundle keeps its entry and grows it; one without (written on ./lib/
      // imports, or a merge that took the page's pre-bundle import block) gets its entry written anew
      const converted = staticImports(md).some((i) => i.spec === `./bundles/${slug}.js`);
      const { page, entry } = convertPage(md, slug, converted && existsSync(entryPath) ? readFileSync(entryPath, "utf8") : undefined);
      writeFileSync(entryPath, entry);
      writeFileSync(file, page);
      console.log(`${file}: one import of ./bundles/${slug}.js; wrote ${relative(ROOT, entryPath)}`);
    }
  } else {
    await bundleAll();
  }
}
