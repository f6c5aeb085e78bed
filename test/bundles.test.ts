// The one-bundle rule for pages (issue 9: a page opens with a few modules, not
// one per lib/ and d3 file). A page imports its lib code in ONE static import,
// from ./bundles/<page>.js, and Plot from ./components/plot.js (which loads
// ./bundles/plot.js when the page draws its first figure); scripts/bundle.ts
// makes those modules from lib/ at build and preview time, from the committed
// entries src/bundles/<page>.ts, which only re-export lib/ (never a copy of
// code). Dynamic `await import("./lib/…")` stays allowed: it loads when a
// reader asks (a kernel, a config parser). scripts/check-build.mjs then caps the
// modules a built page loads on open.
import { describe, it, expect } from "vitest";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { ROOT } from "../exercises/harness/discover.js";
import { BUNDLES, bundleEntries, buildBundles, convertPage, staticImports } from "../scripts/bundle.js";

const pages = readdirSync(join(ROOT, "src")).filter((f) => f.endsWith(".md"));

describe("pages load lib through one bundle (src/bundles)", () => {
  it("finds the pages and the entries", () => {
    expect(pages.length).toBeGreaterThan(1);
    expect(bundleEntries().map((f) => basename(f))).toContain("plot.ts");
  });

  for (const page of pages) {
    const slug = page.replace(/\.md$/, "");
    it(`src/${page}: no static ./lib/ import, at most one import of ./bundles/${slug}.js, Plot from ./components/plot.js`, () => {
      const imports = staticImports(readFileSync(join(ROOT, "src", page), "utf8"));
      const md = readFileSync(join(ROOT, "src", page), "utf8");
      const code = [...md.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
      const fromLib = [...code.matchAll(/^\s*import\b[^;(]*?from\s*"(\.\/lib\/[^"]+)"/gm)].map((m) => m[1]);
      expect(fromLib, `${page} imports lib/ statically: move these into src/bundles/${slug}.ts (npx tsx scripts/bundle.ts --convert src/${page})`).toEqual([]);
      expect(code, `${page} imports @observablehq/plot: import {Plot} from "./components/plot.js"`).not.toMatch(/from\s*"@observablehq\/plot"/);
      expect(code, `${page} imports Plot's bundle on open: import {Plot} from "./components/plot.js" (it loads with the first figure)`).not.toMatch(/^\s*import\b[^;(]*?from\s*"\.\/bundles\/plot\.js"/m);
      const bundleImports = imports.filter((i) => i.spec.startsWith("./bundles/"));
      expect(bundleImports.length, `${page}: one import from its bundle`).toBeLessThanOrEqual(1);
      for (const i of bundleImports) expect(i.spec, `${page} imports another page's bundle`).toBe(`./bundles/${slug}.js`);
    });
  }

  for (const entry of bundleEntries()) {
    const name = relative(ROOT, entry);
    it(`${name}: only re-exports from lib/ (or a package), and its page imports it`, () => {
      const lines = readFileSync(entry, "utf8").split("\n").filter((l) => l.trim() && !/^\s*\/\//.test(l));
      const reexport = /^export (\{[^}]*\}|\* as \w+|\*) from "(\.\.\/\.\.\/lib\/[^"]+|@[\w-]+\/[\w-]+|[\w-]+)";$/;
      expect(lines.filter((l) => !reexport.test(l)), `${name} holds something other than one-line re-exports`).toEqual([]);
      const slug = basename(entry, ".ts");
      if (slug === "plot") return;
      expect(existsSync(join(ROOT, "src", `${slug}.md`)), `${name} has no page src/${slug}.md`).toBe(true);
      expect(readFileSync(join(ROOT, "src", `${slug}.md`), "utf8")).toContain(`from "./bundles/${slug}.js"`);
    });
  }

  it("the generated bundles are not committed (git ignores src/bundles/*.js)", () => {
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain("src/bundles/*.js");
  });

  it("every page's bundle builds, and none loads gpu.js (or another left-out package) on page open", async () => {
    // the pages' bundles only: Plot's (src/bundles/plot.ts) holds no lib code and takes most of the time
    const { result, problems } = await buildBundles(BUNDLES, bundleEntries().filter((f) => basename(f) !== "plot.ts"));
    expect(result.errors).toEqual([]);
    expect(problems).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((f) => /node_modules\/gpu\.js\//.test(f)), "gpu.js was bundled").toBe(false);
    // each page bundle is made from lib/ itself
    for (const [out, meta] of Object.entries(result.metafile.outputs)) {
      expect(Object.keys(meta.inputs).some((f) => f.startsWith("lib/")), `${out} holds no lib/ code`).toBe(true);
    }
  }, 60_000);
});

describe("scripts/bundle.ts --convert (how a page written on ./lib/ imports is converted)", () => {
  const page = `---
title: x
---

\`\`\`js
import * as Plot from "@observablehq/plot";
import {html} from "htl";
// why one line per module
import {a, b as c} from "./lib/x/a.js";
import {
  d, e
} from "./lib/y/index.js";
import {exerciseBox} from "./components/exercise.js";
\`\`\`

\`\`\`js
const {k} = await import("./lib/x/kernel.js");
\`\`\`
`;
  const { page: out, entry } = convertPage(page, "zero");
  it("replaces the static lib imports with one import of the page's bundle, aliases kept, Plot from its bundle", () => {
    expect(out).toContain('import {a, c, d, e} from "./bundles/zero.js";');
    expect(out).not.toMatch(/from "\.\/lib\//);
    expect(out).toContain('import {Plot} from "./components/plot.js";');
    expect(out).toContain('await import("./lib/x/kernel.js")'); // dynamic imports stay
    expect(out).toContain('import {exerciseBox} from "./components/exercise.js";');
    expect(out).not.toContain("why one line per module");
  });
  it("on a page converted before, adds ./lib/ imports that came back (a merge) to its bundle import and entry", () => {
    const merged = out.replace('import {exerciseBox}', 'import {f} from "./lib/z/index.js";\nimport {exerciseBox}');
    const again = convertPage(merged, "zero", entry);
    expect(again.page).toContain('import {a, c, d, e, f} from "./bundles/zero.js";');
    expect(again.page).not.toMatch(/from "\.\/lib\//);
    expect(again.page.match(/from "\.\/bundles\/zero\.js"/g)).toHaveLength(1);
    expect(again.entry).toBe(`${entry}export {f} from "../../lib/z/index.js";\n`);
    expect(() => convertPage(merged, "zero")).toThrow(/imports \.\/bundles\/zero\.js already/);
  });
  it("writes the entry as re-exports of the same modules, with the comments that explained them", () => {
    expect(entry.split("\n").slice(1)).toEqual([
      "// why one line per module",
      'export {a, b as c} from "../../lib/x/a.js";',
      'export {d, e} from "../../lib/y/index.js";',
      "",
    ]);
  });
});

// Issue 9: a page's figures are drawn as the reader nears them (src/components/lazy.js), not all
// on open: a figure is displayed as lazyFigure(() => Plot.plot(…), {height}), never as
// Plot.plot(…) itself (in display(…), in an inline ${…} or as a cell's expression).
describe("pages draw figures as the reader nears them (lazyFigure)", () => {
  const direct = /(?:\bdisplay\(\s*|\$\{\s*|^)Plot\.plot\(/gm;
  for (const page of pages) {
    it(`src/${page}: no Plot.plot(…) displayed directly`, () => {
      const md = readFileSync(join(ROOT, "src", page), "utf8");
      const lines = [...md.matchAll(direct)].map((m) => `line ${md.slice(0, m.index).split("\n").length}: ${md.slice(m.index, m.index + 60).split("\n")[0]}`);
      expect(lines, `${page}: wrap each in lazyFigure(() => …, {height: <expected px>}) from ./components/lazy.js (CONTRIBUTING.md, "Pages open fast")`).toEqual([]);
    });
  }
  it("the check finds a figure displayed directly, and passes one drawn lazily", () => {
    const count = (s: string) => [...s.matchAll(direct)].length;
    expect(count("display(Plot.plot({width}));\n")).toBe(1);
    expect(count("<div>${Plot.plot({width})}</div>")).toBe(1);
    expect(count("```js\nPlot.plot({width})\n```")).toBe(1);
    expect(count("display(lazyFigure(() => Plot.plot({width}), {height: 300}));")).toBe(0);
    expect(count("function f() {\n  return Plot.plot({width});\n}")).toBe(0);
  });
  it("components/plot.js: before Plot has loaded, a member throws and says what to do; the runtime can hold it", async () => {
    // @ts-expect-error: a plain ES module of the site, without types
    const { Plot, plotLoaded } = (await import("../src/components/plot.js")) as { Plot: Record<string | symbol, unknown> & { plot: (o: object) => unknown }; plotLoaded: () => boolean };
    expect(plotLoaded()).toBe(false);
    expect(() => Plot.plot({})).toThrow(/Plot\.plot used before Plot has loaded: draw figures with lazyFigure/);
    expect(() => (Plot.line as () => unknown)()).toThrow(/await loadPlot\(\) first/);
    // The Observable runtime reads `then` (a promise?) and `next`, `return` (a generator?) of a cell's value.
    for (const probe of ["then", "next", "return", "throw"]) expect(Plot[probe], probe).toBeUndefined();
    expect(Plot[Symbol.iterator]).toBeUndefined();
    expect("plot" in Plot).toBe(false);
  });
});
