import { CHAPTERS } from "./lib/chapters.js";

// The site: one page per written chapter, in course order. Offline: no
// Google Fonts (the default theme's font stylesheet is replaced by `head`),
// no npm: imports; every import resolves to node_modules or src/.
export default {
  root: "src",
  // COURSE_OUT lets a check build into a private folder while another build runs.
  output: process.env.COURSE_OUT ?? "dist",
  title: "How LLMs are trained",
  pages: CHAPTERS.filter((c) => c.status === "written").map((c) => ({ name: `${c.number}. ${c.title}`, path: `/${c.slug}` })),
  globalStylesheets: [],
  // A number typed outside a slider's range is kept as typed and marked; the figure keeps its last valid value.
  head: `<style>
    form input:invalid { outline: 2px solid var(--theme-red, #d62728); outline-offset: 1px; }
    form:has(input:invalid)::after { content: "out of range: the figure keeps the last valid value"; display: block; color: var(--theme-red, #d62728); font-size: 0.85em; }
  </style>`,
  theme: ["air", "near-midnight"],
  search: true,
  footer: "A course on training large language models. Every number on these pages is computed by the tested code in lib/ or cited.",
  toc: true,
  pager: true,
};
