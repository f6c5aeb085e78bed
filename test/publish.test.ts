// Publishing under a sub-path (issue 14, "Publish"): the settings that give the
// build its base path and origin (scripts/site.ts), the canonical links and the
// sitemap (scripts/postbuild.mjs), the checks of a built site
// (scripts/check-build.mjs) on small hand-made builds, and the GitHub Pages
// workflow's key facts. The e2e run (npm run test:e2e) builds the real site
// under /llm-course/ and crawls it.
import { describe, it, expect } from "vitest";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { ROOT } from "../exercises/harness/discover.js";
import { siteOf, canonicalUrl } from "../scripts/site.js";
// @ts-expect-error: a plain ES module without types
import { sitemapXml, baseOf, canonicalOf, postBuild } from "../scripts/postbuild.mjs";
// @ts-expect-error: a plain ES module without types
import { checkBuild } from "../scripts/check-build.mjs";
import config from "../observablehq.config.js";

describe("siteOf: COURSE_BASE and COURSE_SITE_URL", () => {
  it("defaults to the root and no origin (npm run dev, npm run build without settings)", () => {
    expect(siteOf({})).toEqual({ base: "/", url: null });
    expect(siteOf({ COURSE_BASE: "", COURSE_SITE_URL: " " })).toEqual({ base: "/", url: null });
  });
  it("adds the trailing slash of a base path and drops the one of an origin", () => {
    expect(siteOf({ COURSE_BASE: "/llm-course", COURSE_SITE_URL: "https://o.github.io/" })).toEqual({ base: "/llm-course/", url: "https://o.github.io" });
    expect(siteOf({ COURSE_BASE: "/a/b/", COURSE_SITE_URL: "http://127.0.0.1:8080" })).toEqual({ base: "/a/b/", url: "http://127.0.0.1:8080" });
  });
  it("refuses a relative base, and an origin with a path, a query or another scheme (no guessing)", () => {
    expect(() => siteOf({ COURSE_BASE: "llm-course/" })).toThrow(/COURSE_BASE must start with "\/"/);
    expect(() => siteOf({ COURSE_BASE: "/a//b/" })).toThrow(/plain path/);
    expect(() => siteOf({ COURSE_SITE_URL: "https://o.github.io/llm-course/" })).toThrow(/path goes in COURSE_BASE/);
    expect(() => siteOf({ COURSE_SITE_URL: "https://o.github.io/?x=1" })).toThrow(/must be an origin/);
    expect(() => siteOf({ COURSE_SITE_URL: "ftp://o.github.io" })).toThrow(/must be an origin/);
    expect(() => siteOf({ COURSE_SITE_URL: "o.github.io" })).toThrow(/must be an origin/);
  });
});

describe("canonicalUrl", () => {
  const site = { base: "/llm-course/", url: "https://o.github.io" };
  it("is the origin, the base and the page's clean path; an index page ends in /", () => {
    expect(canonicalUrl("/index", site)).toBe("https://o.github.io/llm-course/");
    expect(canonicalUrl("/precision", site)).toBe("https://o.github.io/llm-course/precision");
    expect(canonicalUrl("/a/index", site)).toBe("https://o.github.io/llm-course/a/");
  });
  it("is null for the 404 page and without an origin", () => {
    expect(canonicalUrl("/404", site)).toBeNull();
    expect(canonicalUrl("/precision", { base: "/llm-course/", url: null })).toBeNull();
  });
  it("the config's head writes it (here without COURSE_SITE_URL: none), and marks the 404 page noindex", () => {
    const head = config.head as (o: { path: string }) => string;
    expect(config.base).toBe(siteOf(process.env).base);
    if (!process.env.COURSE_SITE_URL) expect(head({ path: "/precision" })).not.toContain("canonical");
    expect(head({ path: "/404" })).toContain('<meta name="robots" content="noindex">');
    expect(head({ path: "/404" })).not.toContain("canonical");
  });
  it("src/404.md exists (Framework builds it into 404.html with <base href> = the base path)", () => {
    expect(existsSync(join(ROOT, "src", "404.md"))).toBe(true);
  });
});

/** A tiny build as Framework writes it: pages with relative links, a sidebar, and a 404 page with its <base>. */
function fakeBuild(site: { base: string; url: string | null }, pages = ["index", "precision", "memory", "notes", "extra"]) {
  const dir = mkdtempSync(join(tmpdir(), "publish-test-"));
  const sidebar = `<nav id="observablehq-sidebar">\n<ol>\n<li class="observablehq-link"><a href="./">Home</a></li>\n</ol>\n<ol>\n<li><a href="./precision">1</a></li>\n<li><a href="./memory">2</a></li>\n<li><a href="./notes">notes</a></li>\n</ol></nav>`;
  const page = (path: string, extraHead = "") => {
    const canonical = canonicalUrl(path, site);
    return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">${extraHead}\n<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">\n${canonical ? `<link rel="canonical" href="${canonical}">\n` : ""}</head>\n<body>${sidebar}<main><a href="./precision">x</a></main></body></html>\n`;
  };
  for (const p of pages) writeFileSync(join(dir, `${p}.html`), page(`/${p}`));
  writeFileSync(join(dir, "404.html"), page("/404", `\n<base href="${site.base}">`));
  return dir;
}
const structural = (problems: string[]) => problems.filter((p) => /canonical|sitemap|404\.html|absolute path/.test(p));

describe("sitemap.xml and the checks of a built site under a base path", () => {
  const site = { base: "/llm-course/", url: "https://o.github.io" };

  it("lists every page's canonical URL once, home first, then the sidebar's order, then unlisted pages; never the 404 page", () => {
    const dir = fakeBuild(site);
    try {
      const xml: string = sitemapXml(dir);
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
      expect(locs).toEqual(["/", "precision", "memory", "notes", "extra"].map((p) => `https://o.github.io/llm-course/${p === "/" ? "" : p}`));
      expect(baseOf(dir)).toBe("/llm-course/");
      expect(canonicalOf(readFileSync(join(dir, "memory.html"), "utf8"))).toBe("https://o.github.io/llm-course/memory");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("post-build writes it, and check-build finds the build clean for its own base and wrong for another", () => {
    const dir = fakeBuild(site);
    try {
      expect(postBuild(dir).sitemap).toBe(true);
      expect(existsSync(join(dir, "sitemap.xml.br"))).toBe(true);
      expect(structural(checkBuild(dir, { base: "/llm-course/" }))).toEqual([]);
      expect(structural(checkBuild(dir, { base: "/other/" }))).toEqual(['404.html: <base href="/llm-course/">, expected "/other/" (COURSE_BASE)']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("without an origin: no canonical link, no sitemap, and that is clean; a stale sitemap is removed", () => {
    const dir = fakeBuild({ base: "/", url: null });
    try {
      writeFileSync(join(dir, "sitemap.xml"), "stale");
      expect(sitemapXml(dir)).toBeNull();
      expect(postBuild(dir).sitemap).toBe(false);
      expect(existsSync(join(dir, "sitemap.xml"))).toBe(false);
      expect(structural(checkBuild(dir, { base: "/" }))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("check-build reports a canonical link for the wrong page, a page without one, a sitemap out of step, an absolute path and a missing 404 page", () => {
    const dir = fakeBuild(site);
    try {
      postBuild(dir);
      writeFileSync(join(dir, "memory.html"), readFileSync(join(dir, "memory.html"), "utf8").replace("llm-course/memory", "llm-course/precision"));
      writeFileSync(join(dir, "notes.html"), readFileSync(join(dir, "notes.html"), "utf8").replace(/<link rel="canonical"[^>]*>/, "").replace('<a href="./precision">x', '<a href="/precision">x'));
      writeFileSync(join(dir, "sitemap.xml"), readFileSync(join(dir, "sitemap.xml"), "utf8").replace(/\s*<url><loc>[^<]*extra<\/loc><\/url>/, ""));
      rmSync(join(dir, "404.html"));
      const problems = structural(checkBuild(dir, { base: "/llm-course/" }));
      expect(problems).toEqual(expect.arrayContaining([
        "404.html: missing (src/404.md)",
        "memory.html: canonical link https://o.github.io/llm-course/precision is not an absolute URL ending in /llm-course/memory",
        "notes.html: refers to absolute paths, which leave the base path: /precision",
        "1 of 5 pages have no canonical link (the others do)",
        "sitemap.xml: no <loc> for https://o.github.io/llm-course/extra",
      ]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe(".github/workflows/deploy.yml (GitHub Pages)", () => {
  const wf = parse(readFileSync(join(ROOT, ".github/workflows/deploy.yml"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  type Step = { uses?: string; run?: string; with?: Record<string, string>; env?: Record<string, string>; id?: string };
  const steps: Step[] = Object.values(wf.jobs as Record<string, { steps: Step[] }>).flatMap((j) => j.steps);
  const action = (name: string) => steps.find((s) => s.uses?.startsWith(`${name}@`));

  it("runs on a push to main, with the permissions Pages deployment needs", () => {
    expect(wf.on.push.branches).toEqual(["main"]);
    expect(wf.permissions).toMatchObject({ pages: "write", "id-token": "write", contents: "read" });
  });
  it("pins Node to the major of package.json's engines, and caches npm", () => {
    const setup = action("actions/setup-node")!;
    const engines = /(\d+)(?:\.\d+)*/.exec(pkg.engines.node)![1];
    expect(String(setup.with!["node-version"]).split(".")[0]).toBe(engines);
    expect(setup.with!["node-version"]).toMatch(/^\d+\.\d+$/); // a version, not "lts/*" or "latest"
    expect(setup.with!.cache).toBe("npm");
  });
  it("installs with npm ci and builds with npm run build, taking COURSE_BASE and COURSE_SITE_URL from Pages", () => {
    expect(steps.some((s) => /^npm ci\b/.test(s.run ?? ""))).toBe(true);
    const build = steps.find((s) => s.run === "npm run build")!;
    expect(build).toBeDefined();
    const pages = action("actions/configure-pages")!;
    expect(build.env!.COURSE_BASE).toBe(`\${{ steps.${pages.id}.outputs.base_path }}`);
    expect(build.env!.COURSE_SITE_URL).toBe(`\${{ steps.${pages.id}.outputs.origin }}`);
    expect(pkg.scripts.build).toMatch(/observable build && node scripts\/postbuild\.mjs dist$/);
  });
  it("uploads dist/ (the build's output) and deploys it", () => {
    expect(action("actions/upload-pages-artifact")!.with!.path).toBe("dist");
    expect(action("actions/deploy-pages")).toBeDefined();
    expect(steps.findIndex((s) => s.run === "npm run build")).toBeLessThan(steps.findIndex((s) => s.uses?.startsWith("actions/upload-pages-artifact@")));
  });
});

describe("serve(): dist/ under a base path, as GitHub Pages serves it (scripts/browser.mjs)", () => {
  it("serves pages under the prefix only, redirects the bare prefix, and answers a missing address with 404.html", async () => {
    // @ts-expect-error: a plain ES module without types
    const { serve } = await import("../scripts/browser.mjs");
    const dir = fakeBuild({ base: "/llm-course/", url: null });
    postBuild(dir);
    const server = await serve(dir, { base: "/llm-course/" });
    try {
      expect(server.url).toBe(`${server.origin}/llm-course/`);
      const get = (p: string, headers = {}) => fetch(server.origin + p, { headers, redirect: "manual" });
      const home = await get("/llm-course/", { "accept-encoding": "br" });
      expect([home.status, home.headers.get("content-encoding")]).toEqual([200, "br"]);
      expect((await get("/llm-course/precision")).status).toBe(200);
      const bare = await get("/llm-course");
      expect([bare.status, bare.headers.get("location")]).toEqual([301, "/llm-course/"]);
      const outside = await get("/precision");
      expect([outside.status, await outside.text()]).toEqual([404, "not found"]);
      const missing = await get("/llm-course/a/b/missing");
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('<base href="/llm-course/">');
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("contrast findings: what fails (scripts/browser.mjs problemsOf, notesOf)", () => {
  it("text fails in either scheme; a figure fails in dark only where the light scheme does not fail alike; light figures are notes", async () => {
    // @ts-expect-error: a plain ES module without types
    const { problemsOf, notesOf } = await import("../scripts/browser.mjs");
    const f = (kind: string, fg: string, bg: string) => ({ kind, fg, bg, ratio: 2, need: kind === "figure mark" ? 3 : 4.5, text: "x", where: "", count: 1 });
    const r = {
      status: 200, settled: true, cellErrors: [], consoleErrors: [], failedRequests: [], outside: [], layout: [], checks: [],
      contrast: {
        light: [f("text", "#efb118", "#fdf7e8"), f("figure text", "#ffffff", "#efb118")],
        dark: [f("figure text", "#ffffff", "#efb118"), f("figure text", "#dfdfd6", "#fbb4ae"), f("text", "#777777", "#1e1e1e")],
      },
    };
    const problems: string[] = problemsOf(r);
    expect(problems.map((p) => p.split(" is ")[0])).toEqual([
      "contrast (light): text #efb118 on #fdf7e8",
      "contrast (dark): figure text #dfdfd6 on #fbb4ae",
      "contrast (dark): text #777777 on #1e1e1e",
    ]);
    expect(notesOf(r)).toHaveLength(1);
  });
});

describe("dark mode and code colours in src/style.css (WCAG AA 4.5:1 for text)", () => {
  const css = readFileSync(join(ROOT, "src", "style.css"), "utf8");
  const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const lum = (c: number[]) => {
    const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a: number[], b: number[]) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
  const mix = (fg: number[], bg: number[], p: number) => fg.map((v, i) => v * p + bg[i] * (1 - p));
  const value = (block: string, name: string) => hex(new RegExp(`${name}: (#[0-9a-f]{6})`, "i").exec(block)![1]);
  // The themes' own colours (Framework 1.13: theme-air.css, theme-near-midnight.css, abstract-dark.css).
  const white = hex("#ffffff"), codeLight = mix(hex("#1b1e23"), white, 0.04);
  const darkB = hex("#161616"), darkA = mix(hex("#dfdfd6"), darkB, 0.04);
  const lightBlock = /@media \(prefers-color-scheme: light\) \{([\s\S]*?)\n\}/.exec(css)![1];
  const darkBlocks = [...css.matchAll(/@media \(prefers-color-scheme: dark\) \{([\s\S]*?)\n\}/g)].map((m) => m[1]).join("\n");

  it("the light syntax colours it sets pass on the code blocks' grey, and Framework's fail there (the reason)", () => {
    for (const name of ["--syntax-keyword", "--syntax-variable", "--syntax-entity-tag"]) expect(contrast(value(lightBlock, name), codeLight), name).toBeGreaterThanOrEqual(4.5);
    for (const old of ["#d73a49", "#e36209", "#22863a"]) expect(contrast(hex(old), codeLight)).toBeLessThan(4.5);
  });
  it("the warning box's label passes on the box's pale yellow (10% of the theme's yellow)", () => {
    const label = hex(/\.warning::before \{ color: (#[0-9a-f]{6}); \}/.exec(lightBlock)![1]);
    expect(contrast(label, mix(hex("#efb118"), white, 0.1))).toBeGreaterThanOrEqual(4.5);
  });
  it("the dark theme's blue passes on the dark page and sidebar; the theme's #4269d0 does not", () => {
    expect(contrast(value(darkBlocks, "--theme-blue"), darkA)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(value(darkBlocks, "--theme-blue"), darkB)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(hex("#4269d0"), darkA)).toBeLessThan(4.5);
  });
  it("the dark button face (20% of the text colour over the page) leaves the text at 4.5:1 or more; the browser's #6b6b6b does not", () => {
    expect(darkBlocks).toContain("background-color: color-mix(in srgb, var(--theme-foreground) 20%, var(--theme-background-a))");
    expect(contrast(hex("#dfdfd6"), mix(hex("#dfdfd6"), darkA, 0.2))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(hex("#dfdfd6"), hex("#6b6b6b"))).toBeLessThan(4.5);
  });
  it("labels on cells keep the light theme's ink in dark mode (the e2e run checks each figure)", () => {
    const ink = hex(/\[aria-label="cell"\]\[fill="none"\]\) \{ color: (#[0-9a-f]{6}); \}/.exec(darkBlocks)![1]);
    expect(ink).toEqual(hex("#1b1e23")); // theme-air's --theme-foreground
  });
});
