// The site-wide fixes of issue 9, checked without a build (the e2e run
// builds the site, checks the built pages with scripts/check-build.mjs, then
// checks them live in Chromium): the post-build step against Framework's own page
// template, the favicon, the contrast of the theme's colours in src/style.css,
// and the meta descriptions.
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { ROOT } from "../exercises/harness/discover.js";
import { CHAPTERS } from "../lib/chapters.js";
// @ts-expect-error: a plain ES module without types
import { fixHtml, faviconIco } from "../scripts/postbuild.mjs";
import config, { DESCRIPTIONS } from "../observablehq.config.js";

const require = createRequire(import.meta.url);
const frameworkDist = join(require.resolve("@observablehq/framework/package.json"), "..", "dist");
const render = readFileSync(join(frameworkDist, "render.js"), "utf8");
const css = readFileSync(join(ROOT, "src", "style.css"), "utf8");

/** WCAG 2.1 contrast ratio of two sRGB colours given as [r, g, b] in 0–255. */
function contrast(a: number[], b: number[]): number {
  const lum = (c: number[]) => {
    const [r, g, bl] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
/** color-mix(in srgb, fg p%, bg) */
const mix = (fg: number[], bg: number[], p: number) => fg.map((v, i) => v * p + bg[i] * (1 - p));
/** The theme's own colours, read from Framework's theme files. */
const themeColour = (file: string, name: string) => hex(new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, "i").exec(readFileSync(join(frameworkDist, "style", file), "utf8"))![1]);

describe("post-build step (scripts/postbuild.mjs) on Framework's page template", () => {
  // The template as Framework renders it: the strings the post-build step rewrites must still be there.
  it("Framework's template still has the markup the step fixes (a Framework upgrade that changes it fails here)", () => {
    expect(render).toContain("<html>");
    expect(render).toContain('<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">');
    expect(render).toMatch(/<ol>\n {4}<label id="observablehq-sidebar-close" for="observablehq-sidebar-toggle"><\/label>/);
    expect(render).toContain('<div id="observablehq-search"><input type="search" placeholder="Search"></div>');
    // What scripts/pace.mjs replaces: `import {define} from "…/_observablehq/client.<hash>.js";`
    expect(render).toMatch(/import \$\{preview \|\| page\.code\.length \? `\{\$\{preview \? "open, " : ""\}define\} from `/);
  });

  const page = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
</head>
<body>
<nav id="observablehq-sidebar">
  <ol>
    <label id="observablehq-sidebar-close" for="observablehq-sidebar-toggle"></label>
    <li class="observablehq-link"><a href="./">Home</a></li>
  </ol>
  <div id="observablehq-search"><input type="search" placeholder="Search"></div>
</nav>`;
  const fixed: string = fixHtml(page);

  it('fixHtml sets lang="en", allows zoom, moves the label out of the list and names the search box', () => {
    expect(fixed).toContain('<html lang="en">');
    expect(fixed).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(fixed).not.toMatch(/<ol>\s*<label/);
    expect(fixed).toMatch(/<label id="observablehq-sidebar-close"[^>]*><\/label>\s*<ol>\s*<li/);
    expect(fixed).toContain('<input type="search" placeholder="Search" aria-label="Search the course">');
  });

  it("fixHtml is idempotent (a second post-build changes nothing)", () => {
    expect(fixHtml(fixed)).toBe(fixed);
  });

  it("faviconIco() is a 32 × 32, 32-bit ICO whose pixels are the mark's blue and white", () => {
    const ico: Buffer = faviconIco();
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]); // reserved, type icon, one image
    expect([ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([32, 32, 32]);
    const size = ico.readUInt32LE(14), offset = ico.readUInt32LE(18);
    expect(offset + size).toBe(ico.length);
    const px = ico.subarray(offset + 40, offset + 40 + 32 * 32 * 4);
    const colours = new Set<string>();
    for (let i = 0; i < px.length; i += 4) if (px[i + 3]) colours.add([px[i + 2], px[i + 1], px[i]].join(","));
    expect([...colours].sort()).toEqual(["255,255,255", "59,95,192"]);
  });
});

describe("contrast of the theme's text colours (src/style.css), WCAG AA 4.5:1", () => {
  const white = themeColour("theme-air.css", "--theme-background-a");
  const light = themeColour("theme-air.css", "--theme-foreground");
  const dark = themeColour("theme-near-midnight.css", "--theme-foreground");
  const darkBg = themeColour("theme-near-midnight.css", "--theme-background-b");
  const lightAlt = mix(light, white, 0.04); // --theme-background-alt (sidebar, code)
  const percent = (block: string, name: string) => Number(new RegExp(`${name}: color-mix\\(in srgb, var\\(--theme-foreground\\) (\\d+)%`).exec(block)![1]) / 100;
  const lightBlock = css.slice(0, css.indexOf("@media (prefers-color-scheme: dark)"));
  const darkBlock = css.slice(css.indexOf("@media (prefers-color-scheme: dark)"));

  it("Framework's own muted and faint greys fail (the reason for the override)", () => {
    expect(contrast(mix(light, white, 0.5), white)).toBeLessThan(4.5); // footer: 3.25:1
    expect(contrast(hex("#ff725c"), white)).toBeLessThan(4.5); // --theme-red
    expect(contrast(hex("#3ca951"), white)).toBeLessThan(4.5); // --theme-green
  });

  for (const name of ["--theme-foreground-muted", "--theme-foreground-faint"]) {
    it(`${name} passes on the page and on the sidebar, light and dark`, () => {
      expect(contrast(mix(light, white, percent(lightBlock, name)), white)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(mix(light, white, percent(lightBlock, name)), lightAlt)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(mix(dark, darkBg, percent(darkBlock, name)), darkBg)).toBeGreaterThanOrEqual(4.5);
    });
  }

  for (const name of ["--theme-red", "--theme-green"]) {
    it(`${name} passes as text, light and dark`, () => {
      const lightValue = hex(new RegExp(`${name}: (#[0-9a-f]{6})`, "i").exec(lightBlock)![1]);
      const darkValue = hex(new RegExp(`${name}: (#[0-9a-f]{6})`, "i").exec(darkBlock)![1]);
      expect(contrast(lightValue, white)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(lightValue, lightAlt)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(darkValue, darkBg)).toBeGreaterThanOrEqual(4.5);
    });
  }
});

describe("site configuration", () => {
  it("every page of the navigation, the home page and the notes have a meta description, a chapter's being its summary", () => {
    const paths = ["/index", ...config.pages.map((p: { path: string }) => p.path)];
    for (const p of paths) expect(DESCRIPTIONS[p]?.length ?? 0, `description of ${p}`).toBeGreaterThan(50);
    for (const c of CHAPTERS) expect(DESCRIPTIONS[`/${c.slug}`]).toBe(c.summary);
    const head = (config.head as (o: { path: string }) => string)({ path: "/memory" });
    expect(head).toContain(`<meta name="description" content="${CHAPTERS.find((c) => c.slug === "memory")!.summary}">`);
  });

  it("the notes page is in the navigation and linked from the home page", () => {
    expect(config.pages.map((p: { path: string }) => p.path)).toContain("/notes");
    expect(readFileSync(join(ROOT, "src", "index.md.ts"), "utf8")).toContain("](./notes)");
  });

  it("no web fonts: only Framework's and Inputs' stylesheets", () => {
    expect(config.globalStylesheets).toEqual(["observablehq:stdlib/inputs.css"]);
    expect(css).not.toMatch(/https?:\/\//);
  });
});
