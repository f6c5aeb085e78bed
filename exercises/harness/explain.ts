/**
 * `--explain <id>`: what a student needs before writing an exercise — the
 * page section that derives it (its URL path and its text from
 * src/<chapter>.md) and the stub's contract (its TSDoc). Node only.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { totalPoints, type AnyFunction, type Exercise } from "./define.js";
import { solutionNames } from "./policy.js";

/** A heading of a page: its level, text, id and line range (the section runs to the next heading of the same or a higher level). */
export interface PageSection {
  level: number;
  title: string;
  id: string;
  /** 0-based line of the heading. */
  start: number;
  /** 0-based line after the section's last line. */
  end: number;
}

/** Framework's heading ids (markdown-it-anchor with @sindresorhus/slugify); a plain fallback if that package is absent. */
async function slugifier(): Promise<(s: string) => string> {
  try {
    const mod = (await import("@sindresorhus/slugify" as string)) as { default: (s: string) => string };
    return mod.default;
  } catch {
    return (s) => s.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/&/g, " and ").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }
}

/** Heading text as the reader sees it: without inline code ticks, link targets, emphasis, HTML tags. */
function plainHeading(s: string): string {
  return s.replace(/`([^`]*)`/g, "$1").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "").replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, "$2").trim();
}

/**
 * The headings of a Markdown page outside fenced code, with the ids Framework gives them
 * (a repeated id gets "-1", "-2", … as markdown-it-anchor does).
 */
export async function pageSections(markdown: string): Promise<PageSection[]> {
  const slugify = await slugifier();
  const lines = markdown.split("\n");
  const out: PageSection[] = [];
  const used = new Map<string, number>();
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const title = plainHeading(h[2]);
    let id = slugify(title);
    const n = used.get(id);
    used.set(id, (n ?? 0) + 1);
    if (n !== undefined) id = `${id}-${n}`;
    out.push({ level: h[1].length, title, id, start: i, end: lines.length });
  }
  for (let k = 0; k < out.length; k++) {
    const next = out.slice(k + 1).find((s) => s.level <= out[k].level);
    if (next) out[k].end = next.start;
  }
  return out;
}

/**
 * A section's text for a terminal: fenced code and HTML dropped, computed
 * values (`${…}`) shown as "…" unless `values` names them (a plain `${NAME}`
 * whose value is a string, such as a chapter's CONVENTION), blank lines collapsed.
 */
export function sectionText(markdown: string, s: PageSection, values: Record<string, unknown> = {}): string {
  const lines = markdown.split("\n").slice(s.start, s.end);
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) { fence = f[1][0]; out.push("  [code or a figure: see the page]"); } else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    let t = line;
    // ${…} with nested braces → "…"
    let res = "";
    for (let i = 0; i < t.length; i++) {
      if (t[i] === "$" && t[i + 1] === "{") {
        let depth = 0, j = i + 1;
        for (; j < t.length; j++) { if (t[j] === "{") depth++; else if (t[j] === "}" && --depth === 0) break; }
        const name = t.slice(i + 2, j).trim();
        res += /^[A-Za-z_$][\w$]*$/.test(name) && typeof values[name] === "string" ? (values[name] as string) : "…";
        i = j;
      } else res += t[i];
    }
    t = res.replace(/<sup>(.*?)<\/sup>/g, "^$1").replace(/<sub>(.*?)<\/sub>/g, "_$1").replace(/<[^>]+>/g, "").replace(/^\s*…\s*$/, "");
    if (t.trim() === "" && (out.length === 0 || out[out.length - 1].trim() === "")) continue;
    if (/^\s*\[code or a figure/.test(t) && out[out.length - 1] === t) continue;
    out.push(t);
  }
  while (out.length && out[out.length - 1].trim() === "") out.pop();
  return out.join("\n");
}

/**
 * The string exports of a chapter page's bundle (src/bundles/<chapter>.ts), which its prose may
 * print as `${NAME}` (memory's CONVENTION); {} when there is no bundle or it does not load.
 */
async function pageStrings(root: string, chapter: string): Promise<Record<string, unknown>> {
  const bundle = resolve(root, "src", "bundles", `${chapter}.ts`);
  if (!existsSync(bundle)) return {};
  try {
    const mod = (await import(pathToFileURL(bundle).href)) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(mod).filter(([, v]) => typeof v === "string"));
  } catch {
    return {};
  }
}

/** The TSDoc block right above `export … <name>` in a module's source, without its comment markers; "" if none. */
export function contractOf(source: string, name: string): string {
  const decl = new RegExp(`^export\\s+(?:default\\s+)?(?:async\\s+)?(?:function\\*?|class|const|let|interface|type)\\s+${name}\\b`, "m");
  const m = decl.exec(source);
  if (!m) return "";
  const before = source.slice(0, m.index).trimEnd();
  if (!before.endsWith("*/")) return "";
  const open = before.lastIndexOf("/**");
  if (open < 0) return "";
  const body = before.slice(open + 3, before.length - 2);
  const lines = body.split("\n").map((l) => l.replace(/^\s*\* ?/, "").trimEnd());
  while (lines.length && lines[0].trim() === "") lines.shift();
  while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
  const sig = source.slice(m.index).split("\n");
  const end = sig.findIndex((l) => /[{;]\s*$/.test(l));
  return [...lines, "", ...sig.slice(0, end < 0 ? 1 : end + 1).map((l) => l.replace(/\s*\{\s*$/, ""))].join("\n");
}

/** The page path of an exercise's section, e.g. "/precision#rounding-to-nearest-even" (or the chapter page). */
export function sectionPath(exercise: Pick<Exercise<AnyFunction>, "chapter" | "section">): string {
  return `/${exercise.chapter}${exercise.section ? `#${exercise.section}` : ""}`;
}

/** The text that `--explain <id>` prints. */
export async function explainExercise(exercise: Exercise<AnyFunction>, root: string): Promise<string> {
  const rule = (title: string) => `── ${title} ${"─".repeat(Math.max(3, 70 - title.length))}`;
  const out: string[] = [];
  out.push(`Exercise ${exercise.id} — ${exercise.title}${exercise.build ? " (build it)" : ""} · ${totalPoints(exercise)} points`);
  out.push(`  write ${exercise.file}: ${exercise.signature}`);
  out.push(`  page section: ${sectionPath(exercise)}  (npm run dev, then open it on http://127.0.0.1:3000)`);
  out.push(`  do not read before solving: ${solutionNames(exercise).join(", ")} (the reference; code of yours that loads it, by any path, gets 0)`);
  if (exercise.uses?.length) out.push(`  building blocks you may import: ${exercise.uses.join(", ")}`);
  const page = resolve(root, "src", `${exercise.chapter}.md`);
  out.push("", rule(`the page: src/${exercise.chapter}.md${exercise.section ? `#${exercise.section}` : ""}`));
  if (!existsSync(page)) out.push(`(no page src/${exercise.chapter}.md)`);
  else if (!exercise.section) out.push(`(exercise ${exercise.id} names no section: read the chapter page ${sectionPath(exercise)})`);
  else {
    const md = readFileSync(page, "utf8");
    const s = (await pageSections(md)).find((x) => x.id === exercise.section);
    out.push(s ? sectionText(md, s, await pageStrings(root, exercise.chapter)) : `(no heading with id "${exercise.section}" in src/${exercise.chapter}.md: read ${sectionPath(exercise)})`);
  }
  const stub = resolve(root, exercise.file);
  out.push("", rule(`the contract: ${exercise.file}`));
  const contract = existsSync(stub) ? contractOf(readFileSync(stub, "utf8"), exercise.exportName) : "";
  out.push(contract || `(no TSDoc above export ${exercise.exportName} in ${exercise.file})`);
  out.push("", rule("what is graded"));
  for (const c of exercise.checks) out.push(`  ${c.name} (${c.points} ${c.points === 1 ? "point" : "points"})`);
  return out.join("\n");
}
