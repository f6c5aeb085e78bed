/**
 * Scaffolds for instructors who extend the course (CONTRIBUTING.md):
 *
 *   npm run new-chapter -- <slug> "<title>"   a "coming" chapter that passes npm test at once
 *   npm run new-exercise -- <slug> <name>      one exercise of a chapter, with the next id
 *
 * Every file it writes is a working placeholder (a tested example function, an
 * exercise whose grader, mutant and stub pass the self-check) marked TODO, and
 * it prints what to do to make the chapter "written". The Classroom workflow is
 * generated again (scripts/classroom.ts). Exit 2 on a usage error.
 */
import slugify from "@sindresorhus/slugify";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findGraderFiles, loadGraders, ROOT } from "../exercises/harness/discover.js";
import { classroomWorkflow, WORKFLOW } from "./classroom.js";

class Usage extends Error {}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** "mean-square" → "meanSquare". */
export const camel = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Writes a new file (never overwrites one). */
function create(root: string, rel: string, text: string, made: string[]): void {
  const file = join(root, rel);
  if (existsSync(file)) throw new Usage(`${rel} exists already: the scaffold does not overwrite files`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  made.push(rel);
}

/** The next exercise id of a chapter: its number, then one more than the largest k in exercises/<slug>/. */
export function nextExerciseId(root: string, slug: string, number: number): string {
  const dir = join(root, "exercises", slug);
  const ks = existsSync(dir)
    ? findGraderFiles(dir).map((f) => new RegExp(`\\bid:\\s*"${number}\\.(\\d+)"`).exec(readFileSync(f, "utf8"))?.[1]).filter((k): k is string => k !== undefined).map(Number)
    : [];
  return `${number}.${Math.max(0, ...ks) + 1}`;
}

// ── templates ──────────────────────────────────────────────────────────────

function exerciseFiles(o: { id: string; slug: string; name: string; fn: string; libImport: string; section: string; title: string }) {
  const stub = `import { notImplemented } from "../harness/index.js";

/**
 * Exercise ${o.id} — ${o.title}. TODO: the contract, not the steps (exercises/README.md).
 *
 * What: the mean of the squares of \`xs\`, (x₀² + … + xₙ₋₁²) / n.
 * Errors: an empty array throws a RangeError whose message names \`xs\`.
 * Derived in the chapter's section #${o.section}.
 *
 * @param xs the values (do not modify it)
 * @returns the mean square, a number
 * @throws {RangeError} \`xs must not be empty\`
 * @example ${o.fn}([3, 4]) // 12.5
 */
export function ${o.fn}(xs: readonly number[]): number {
  return notImplemented("${o.id}");
}
`;
  const grader = `import * as fc from "fast-check";
import { defineExercise, expectSame, expectThrows, property } from "../harness/index.js";
import { ${o.fn} as reference } from "${o.libImport}";
import type { ${o.fn} } from "./${o.name}.js";

// TODO: checks for the likely mistakes, each with a hint that points to the page's section
// (never the formula); expected values from the reference or a published figure.
const see = "see the page's section #${o.section}";

export default defineExercise({
  placeholder: true, // TODO: delete this line when the grader is real: until then it is not graded (define.ts)
  id: "${o.id}",
  kind: "concept", // TODO: transcription (8 points), concept (12) or \`build: true\` (24), the checks' points adding up to it: exercises/README.md, "Points"
  title: "${o.title}",
  chapter: "${o.slug}",
  section: "${o.section}",
  file: "exercises/${o.slug}/${o.name}.ts",
  exportName: "${o.fn}",
  signature: "${o.fn}(xs: readonly number[]): number",
  summary: "TODO: one paragraph for the page box: what to implement, the edge cases, what to read.",
  reference: reference as typeof ${o.fn},
  checks: [
    { name: "the stub's example", points: 1, run: async (f) => {
        await expectSame(f, reference, [[3, 4]], { hint: \`the @example of the stub; \${see}\` });
    } },
    { name: "an empty array throws a RangeError", points: 1, run: async (f) => {
        await expectThrows(f, [[]], /xs/, { class: RangeError, hint: \`the contract's error; \${see}\` });
    } },
    { name: "random arrays", points: 2, run: (f) => property(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 50 }), async (xs) => {
        await expectSame(f, reference, [xs], { tol: { rel: 1e-12, abs: 1e-12 }, hint: see });
    }) },
  ],
});
`;
  const mutants = `import type { Mutant } from "../../harness/index.js";
import type { ${o.fn} } from "../${o.name}.js";

// TODO: the plausible mistakes of a student, each with the check that must catch it.
export const mutants: Record<string, Mutant<typeof ${o.fn}>> = {
  "sums the squares without dividing by n": {
    impl: (xs) => { if (xs.length === 0) throw new RangeError("xs must not be empty"); return xs.reduce((s, x) => s + x * x, 0); },
    caughtBy: ["the stub's example", "random arrays"],
  },
  "returns NaN for an empty array instead of throwing": {
    impl: (xs) => xs.reduce((s, x) => s + x * x, 0) / xs.length,
    caughtBy: "an empty array throws a RangeError",
  },
};
`;
  return { stub, grader, mutants };
}

function libFunction(fn: string, slug: string): string {
  return `/**
 * TODO: the chapter's first concept. An example export: the mean of the squares of \`xs\`,
 * (x₀² + … + xₙ₋₁²) / n, summed in order in float64.
 * @param xs the values (not modified)
 * @returns the mean square
 * @throws {RangeError} \`xs must not be empty\` when \`xs\` is empty
 * @example ${fn}([3, 4]) // 12.5
 * @see TODO: the primary source (paper, section, or file and commit) of the ${slug} chapter
 */
export function ${fn}(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError("xs must not be empty");
  let sum = 0;
  for (const x of xs) sum += x * x;
  return sum / xs.length;
}
`;
}

function libTest(fn: string, module: string): string {
  return `import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import { ${fn} } from "${module}";

// TODO: a worked example, edge cases, a fast-check property, and an oracle or a published figure.
describe("${fn}", () => {
  it("worked example: [3, 4] gives (9 + 16) / 2 = 12.5", () => {
    expect(${fn}([3, 4])).toBe(12.5);
  });
  it("throws a RangeError naming xs on an empty array", () => {
    expect(() => ${fn}([])).toThrow(RangeError);
    expect(() => ${fn}([])).toThrow(/xs must not be empty/);
  });
  it("oracle: the mean square is the variance plus the squared mean", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 40 }), (xs) => {
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
      const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
      expect(${fn}(xs)).toBeCloseTo(variance + mean * mean, 6);
    }));
  });
  it("property: a constant array c gives c², and the input is not modified", () => {
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 20 }), (c, n) => {
      const xs = Array(n).fill(c);
      expect(${fn}(xs)).toBe(c * c);
      expect(xs).toEqual(Array(n).fill(c));
    }));
  });
});
`;
}

function page(c: { number: number; slug: string; title: string }, id: string): string {
  const box = "${exerciseBox(exercises, \"" + id + "\")}";
  const value = "${meanSquare([3, 4])}";
  return `---
title: ${c.number}. ${c.title}
draft: true
---

<!-- TODO (npm run new-chapter wrote this skeleton): a draft page is not built nor listed.
     To make the chapter "written": fill every section, remove "draft: true" above, set status
     "written" in lib/chapters.ts and the README table (CONTRIBUTING.md, "Add or extend a chapter"). -->

# ${c.title}

\`\`\`js
import {Plot} from "./components/plot.js";
import {meanSquare} from "./bundles/${c.slug}.js";
import {exerciseBox} from "./components/exercise.js";
const exercises = FileAttachment("data/exercises.json").json();
\`\`\`

<!-- The box keeps its room while its numbers are computed: measure --room again at 1350 px (CONTRIBUTING.md). -->
<div class="keeps-room" style="--room: 560px">
<div class="tip" id="what-to-remember" label="What to remember">

- TODO: five to seven things a practitioner must keep from this chapter, one a bullet, each number computed by lib/${c.slug} (for instance ${value}) and a link to the section that derives it ([Worked example](#worked-example)).
- TODO
- TODO
- TODO
- TODO

</div>
</div>

## Why

TODO: the problem this chapter solves, for a reader who has read the previous chapters, with the primary source.

## Worked example

TODO: one example, step by step. Every number is computed by lib/${c.slug} (for instance ${value}) or cited.

## Figures

TODO: figures that take Framework's \`width\`; a result with fixed inputs comes from a data loader (\`src/data/${c.slug}-NAME.json.ts\`).

## Exercises

${box}

## Corrections to the notes

TODO: one box per correction, each an entry of \`lib/corrections.ts\` with the same id and title: a
\`div\` of class \`warning\` with the id \`correction-ID\` and the label \`Correction: TITLE\` (CONTRIBUTING.md).

## References

- TODO: the primary sources (papers with sections, code with files and commits).

## Glossary (术语)

| English | 中文 (from the notes) | meaning |
|---|---|---|
| mean square | 均方 | TODO: the chapter's terms, with the notes' Chinese |
`;
}

function bench(c: { number: number; slug: string }, fn: string, graderName: string): string {
  return `/**
 * Chapter ${c.number} benchmarks (npm run bench -- ${c.slug}): TODO. Prints figures with units; asserts nothing.
 */
import { ${fn} } from "../lib/${c.slug}/index.js";
import { gradeExercise } from "../exercises/harness/index.js";
import exercise from "../exercises/${c.slug}/${graderName}.test.js";

export default async function bench(): Promise<void> {
  const xs = Array.from({ length: 1_000_000 }, (_, i) => Math.sin(i));
  let t0 = performance.now();
  ${fn}(xs);
  console.log(\`${fn} on 10⁶ values: \${(performance.now() - t0).toFixed(1)} ms\`);
  t0 = performance.now();
  await gradeExercise(exercise, exercise.reference);
  console.log(\`exercise \${exercise.id}'s grader on the reference: \${(performance.now() - t0).toFixed(0)} ms\`);
}
`;
}

// ── commands ───────────────────────────────────────────────────────────────

/** Writes .github/workflows/classroom.yml again from the graders (a new exercise gets its test). */
async function regenerateClassroom(root: string): Promise<void> {
  if (root !== ROOT) return; // graders load from this repository only
  writeFileSync(join(root, WORKFLOW), classroomWorkflow((await loadGraders()).map((g) => g.exercise)));
}

/**
 * Scaffolds a "coming" chapter: its entry in lib/chapters.ts and the README table, a draft
 * page with every section, lib/<slug>/index.ts with a tested example export, exercise
 * <number>.1 (stub, grader, mutants, box on the page) and the bench file.
 * @returns the files written or edited
 * @throws Usage on a bad slug, a slug in use, or an empty title
 */
export function newChapter(root: string, slug: string, title: string): { number: number; made: string[] } {
  if (!KEBAB.test(slug)) throw new Usage(`the slug must be kebab-case (lowercase letters, digits, "-"), got "${slug}"`);
  if (!title?.trim()) throw new Usage("give the chapter a title: npm run new-chapter -- <slug> \"<title>\"");
  const chaptersFile = join(root, "lib/chapters.ts");
  const chapters = readFileSync(chaptersFile, "utf8");
  const numbers = [...chapters.matchAll(/\{ number: (\d+), slug: "([^"]+)"/g)];
  if (numbers.some((m) => m[2] === slug)) throw new Usage(`chapter "${slug}" exists already: use npm run new-exercise -- ${slug} <name>`);
  for (const p of [`src/${slug}.md`, `lib/${slug}`, `exercises/${slug}`]) if (existsSync(join(root, p))) throw new Usage(`${p} exists already`);
  const number = Math.max(...numbers.map((m) => Number(m[1]))) + 1;
  const made: string[] = [];

  const last = numbers[numbers.length - 1];
  const lineEnd = chapters.indexOf("\n", last.index!);
  const entry = `\n  { number: ${number}, slug: "${slug}", title: ${JSON.stringify(title)}, summary: ${JSON.stringify(`TODO: one sentence on ${title} for the home page.`)}, status: "coming" },`;
  writeFileSync(chaptersFile, chapters.slice(0, lineEnd) + entry + chapters.slice(lineEnd));
  made.push("lib/chapters.ts (entry)");

  const readmeFile = join(root, "README.md");
  const readme = readFileSync(readmeFile, "utf8");
  const rows = [...readme.matchAll(/^\| \d+ \| [a-z0-9-]+ \| (?:written|coming) \|$/gm)];
  if (rows.length > 0) {
    const after = rows[rows.length - 1].index! + rows[rows.length - 1][0].length;
    writeFileSync(readmeFile, `${readme.slice(0, after)}\n| ${number} | ${slug} | coming |${readme.slice(after)}`);
    made.push("README.md (chapter row)");
  }

  const id = `${number}.1`, name = "mean-square", fn = "meanSquare";
  create(root, `lib/${slug}/index.ts`, `/**\n * Chapter ${number}, ${title}: the public API of lib/${slug} (what the page and the graders import).\n */\n${libFunction(fn, slug)}`, made);
  create(root, `lib/${slug}/index.test.ts`, libTest(fn, "./index.js"), made);
  const ex = exerciseFiles({ id, slug, name, fn, libImport: `../../lib/${slug}/index.js`, section: "worked-example", title: "mean square (TODO: the chapter's first exercise)" });
  create(root, `exercises/${slug}/${name}.ts`, ex.stub, made);
  create(root, `exercises/${slug}/${name}.test.ts`, ex.grader, made);
  create(root, `exercises/${slug}/mutants/${name}.ts`, ex.mutants, made);
  create(root, `bench/${slug}.bench.ts`, bench({ number, slug }, fn, name), made);
  create(root, `src/${slug}.md`, page({ number, slug, title }, id), made);
  // What the page takes from lib/, as one bundle (CONTRIBUTING.md, "Pages load lib/ as one module").
  create(root, `src/bundles/${slug}.ts`, `// What src/${slug}.md takes from lib/ (scripts/bundle.ts makes it one module, ${slug}.js).\nexport { ${fn} } from "../../lib/${slug}/index.js";\n`, made);
  return { number, made };
}

/**
 * Scaffolds one exercise of an existing chapter with the next id: the reference
 * lib/<slug>/<name in camelCase>.ts (exported from lib/<slug>/index.ts) and its test,
 * the stub, the grader, the mutants, and its box on the page after the last box.
 * @returns the files written or edited, and the id
 */
export function newExercise(root: string, slug: string, name: string): { id: string; made: string[] } {
  const chapters = readFileSync(join(root, "lib/chapters.ts"), "utf8");
  const m = new RegExp(`\\{ number: (\\d+), slug: "${slug.replace(/[^a-z0-9-]/g, "")}"`).exec(chapters);
  if (!m) throw new Usage(`unknown chapter "${slug}"; chapters: ${[...chapters.matchAll(/slug: "([^"]+)"/g)].map((x) => x[1]).join(", ")}`);
  if (!KEBAB.test(name)) throw new Usage(`the exercise name must be kebab-case (the stub's file name), got "${name}"`);
  const fn = camel(name);
  const id = nextExerciseId(root, slug, Number(m[1]));
  const made: string[] = [];
  create(root, `lib/${slug}/${fn}.ts`, libFunction(fn, slug), made);
  create(root, `lib/${slug}/${fn}.test.ts`, libTest(fn, `./${fn}.js`), made);
  const indexFile = join(root, "lib", slug, "index.ts");
  const line = `export { ${fn} } from "./${fn}.js";\n`;
  writeFileSync(indexFile, existsSync(indexFile) ? readFileSync(indexFile, "utf8") + line : line);
  made.push(`lib/${slug}/index.ts (export)`);
  const pageFile = join(root, "src", `${slug}.md`);
  const pageText = existsSync(pageFile) ? readFileSync(pageFile, "utf8") : "";
  const headings = [...pageText.matchAll(/^#{2,3} (.+)$/gm)];
  // A heading that exists (so the grader self-check passes at once): "Exercises", else the last section
  // before the references; the instructor points it at the section that derives the exercise.
  const candidates = headings.map((h) => h[1]).filter((t) => !/^(References|Glossary|Corrections)/.test(t));
  const section = headings.some((h) => h[1] === "Exercises") ? "exercises" : candidates.length ? slugify(candidates.at(-1)!) : "TODO-section";
  const ex = exerciseFiles({ id, slug, name, fn, libImport: `../../lib/${slug}/index.js`, section, title: `${name.replace(/-/g, " ")} (TODO: title)` });
  create(root, `exercises/${slug}/${name}.ts`, ex.stub, made);
  create(root, `exercises/${slug}/${name}.test.ts`, ex.grader, made);
  create(root, `exercises/${slug}/mutants/${name}.ts`, ex.mutants, made);
  if (pageText) {
    const box = `\${exerciseBox(exercises, "${id}")}`;
    const boxes = [...pageText.matchAll(/^\$\{exerciseBox\(exercises, "[\d.]+"\)\}$/gm)];
    const before = /^## (Corrections|References|Glossary)/m.exec(pageText);
    const at = boxes.length ? boxes[boxes.length - 1].index! + boxes[boxes.length - 1][0].length : before ? before.index! - 1 : pageText.length;
    writeFileSync(pageFile, `${pageText.slice(0, at)}\n\n${box}${pageText.slice(at)}`);
    made.push(`src/${slug}.md (box ${id})`);
  }
  return { id, made };
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === "new-chapter") {
      const [slug, title] = args;
      if (args.length !== 2) throw new Usage('usage: npm run new-chapter -- <slug> "<title>"');
      const { number, made } = newChapter(ROOT, slug, title);
      await regenerateClassroom(ROOT);
      console.log(`Chapter "${slug}" scaffolded as "coming" (npm test passes as it is):\n${made.map((f) => `  ${f}`).join("\n")}\n  ${WORKFLOW} (generated again)

To make it "written" (CONTRIBUTING.md, "Add or extend a chapter"):
  1. lib/${slug}/: replace the example meanSquare with the chapter's reference code, one concept per
     file named after its export, TSDoc (contract, math, units, @throws, @example, @see the source) and
     tests beside it (worked example, edge cases, a fast-check property, an oracle or a published figure).
  2. src/${slug}.md: fill Why, Worked example, Figures, Exercises, Corrections to the notes (each box an
     entry of lib/corrections.ts in a block of this chapter), References and the Glossary (术语) table.
  3. Exercises: at least 3, one of them "build it" (build: true); add them with
     npm run new-exercise -- ${slug} <name>, then write their contracts, checks and mutants, and delete
     "placeholder: true" from each grader (a placeholder is not graded: scorecard, Gradescope, Classroom).
  4. bench/${slug}.bench.ts: time what the chapter's reader or grader waits for.
  5. Remove "draft: true" from the page, set status "written" in lib/chapters.ts and the README row
     (| ${number} | ${slug} | written |); npm test then requires the page, the lib and 3 exercises.
  6. Look at the page: node scripts/check-page.mjs ${slug} (and --width=390).`);
      return 0;
    }
    if (command === "new-exercise") {
      const [slug, name] = args;
      if (args.length !== 2) throw new Usage("usage: npm run new-exercise -- <slug> <name>   (name: the stub's kebab-case file name)");
      const { id, made } = newExercise(ROOT, slug, name);
      await regenerateClassroom(ROOT);
      console.log(`Exercise ${id} scaffolded:\n${made.map((f) => `  ${f}`).join("\n")}\n  ${WORKFLOW} (generated again)

Next (exercises/README.md): replace the example in lib/${slug}/${camel(name)}.ts with the reference; write
the stub's contract; give the grader its checks, hints and the page section (section: "<heading id>");
add the plausible mistakes to the mutants with the check that catches each; move the box on the page to
the section that derives the exercise (ids stay in page order); then delete "placeholder: true" from the
grader: until then it is not graded. npm test exercises ${id} shows the student's view.`);
      return 0;
    }
    throw new Usage("usage: tsx scripts/scaffold.ts new-chapter <slug> \"<title>\" | new-exercise <slug> <name>");
  } catch (err) {
    if (err instanceof Usage) { console.error(err.message); return 2; }
    throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(ROOT, "scripts/scaffold.ts")) process.exit(await main(process.argv.slice(2)));
