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
  theme: ["air", "near-midnight"],
  search: true,
  footer: "A course on training large language models. Every number on these pages is computed by the tested code in lib/ or cited.",
  toc: true,
  pager: true,
};
