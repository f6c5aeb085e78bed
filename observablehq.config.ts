import { basename } from "node:path";
import { CHAPTERS } from "./lib/chapters.js";
import { siteOf, canonicalUrl } from "./scripts/site.js";

/** Base path and origin of the published site (COURSE_BASE, COURSE_SITE_URL: scripts/site.ts). */
export const SITE = siteOf(process.env);
import { bundleAll } from "./scripts/bundle.js";

// Pages import their lib code as one module (src/bundles/<page>.js) and Plot with d3 as another
// (src/bundles/plot.js), generated from lib/ by scripts/bundle.ts. Framework's CLI reads this
// file for every build and preview, whoever starts it (npm run build, buildSite, npm run dev), so
// the bundles are made here: once for `observable build`, and kept up to date while
// `observable preview` runs (esbuild watches lib/; the preview reloads a page when its bundle
// changes). Importing this file anywhere else (a test reading DESCRIPTIONS) bundles nothing.
const command = /^observable(\.js)?$/.test(basename(process.argv[1] ?? "")) ? process.argv[2] : undefined;
if (command === "build" || command === "preview") {
  // the preview re-imports this file when it changes: one watcher per process
  const started = globalThis as { __courseBundles?: boolean };
  if (!(command === "preview" && started.__courseBundles)) {
    started.__courseBundles = true;
    await bundleAll({ watch: command === "preview" });
  }
}

/** The meta description of each page: a chapter's summary from lib/chapters.ts, or the site's. */
export const DESCRIPTIONS: Record<string, string> = {
  "/index": "A course, with tested code, on how large language models are trained: precision formats, memory, accumulation and checkpointing, mixed precision, parallelism, ZeRO, offload, FlashAttention.",
  "/notes": "What the course's three study notes cover, chapter by chapter, and every place where the course corrects them, with the source.",
  "/cheat-sheet": "The formulas of every chapter on one page, each linked to the section that derives it, with examples computed by the course's tested code.",
  "/glossary": "Every term of every chapter's glossary in one table: the English term, the study notes' Chinese term, what it means, and its chapter.",
  ...Object.fromEntries(CHAPTERS.map((c) => [`/${c.slug}`, c.summary])),
};

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

// The site: one page per written chapter, in course order, then the notes.
// Offline: no Google Fonts (src/style.css imports only Framework's own
// stylesheets), no npm: imports; every import resolves to node_modules or
// src/. What the page template gets wrong and no option sets (lang, zoom,
// the sidebar's markup) is fixed after the build by scripts/postbuild.mjs.
export default {
  root: "src",
  // COURSE_OUT lets a check build into a private folder while another build runs.
  output: process.env.COURSE_OUT ?? "dist",
  base: SITE.base,
  title: "How LLMs are trained",
  pages: [
    ...CHAPTERS.filter((c) => c.status === "written").map((c) => ({ name: `${c.number}. ${c.title}`, path: `/${c.slug}` })),
    { name: "The study notes and their errata", path: "/notes" },
    { name: "Cheat sheet", path: "/cheat-sheet" },
    { name: "Glossary (术语)", path: "/glossary" },
  ],
  // Inputs' stylesheet (pages import Inputs from node_modules, so Framework does not add it):
  // without it tables neither scroll nor size their columns. No web fonts.
  globalStylesheets: ["observablehq:stdlib/inputs.css"],
  // Themes air (light) and near-midnight (dark), Inputs' CSS and the contrast fixes.
  style: "style.css",
  head: ({ path }: { path: string }) => `<meta name="description" content="${escapeAttr(DESCRIPTIONS[path] ?? DESCRIPTIONS["/index"])}">${canonicalUrl(path, SITE) ? `
<link rel="canonical" href="${escapeAttr(canonicalUrl(path, SITE)!)}">` : ""}${path === "/404" ? `
<meta name="robots" content="noindex">` : ""}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script type="module" src="/components/a11y.js"></script>`,
  search: true,
  footer: "A course on training large language models. Every number on these pages is computed by the tested code in lib/ or cited.",
  toc: true,
  pager: true,
};
