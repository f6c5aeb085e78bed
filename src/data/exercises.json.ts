// Data loader (runs in Node at build time): the metadata of every exercise,
// read from the graders themselves, so that a page box shows the same id,
// title, file, signature and points as the scorecard.
import { loadGraders } from "../../exercises/harness/discover.js";
import { totalPoints } from "../../exercises/harness/index.js";
import { solutionNames } from "../../exercises/harness/policy.js";
import { pageSections } from "../../exercises/harness/explain.js";
import { existsSync, readFileSync } from "node:fs";
import { ROOT } from "../../exercises/harness/discover.js";

const graders = await loadGraders();

/** The title of a page heading with this id, or null. */
async function sectionTitle(chapter: string, id: string | undefined): Promise<string | null> {
  const page = `${ROOT}/src/${chapter}.md`;
  if (!id || !existsSync(page)) return null;
  return (await pageSections(readFileSync(page, "utf8"))).find((s) => s.id === id)?.title ?? null;
}

const out = await Promise.all(graders.map(async ({ exercise: e }) => ({
  id: e.id,
  title: e.title,
  chapter: e.chapter,
  file: e.file,
  exportName: e.exportName,
  signature: e.signature,
  summary: e.summary,
  points: totalPoints(e),
  checks: e.checks.map((c) => ({ name: c.name, points: c.points })),
  build: e.build === true,
  /** What solving it asks: "transcription", "concept", or "build" (exercises/README.md, "Points"). */
  kind: e.build ? "build" : e.kind ?? null,
  section: e.section ?? null,
  sectionTitle: await sectionTitle(e.chapter, e.section),
  /** What a student must not read before solving (the reference in lib/). */
  solution: solutionNames(e),
  /** Building blocks the stub names, which the student's code may import. */
  uses: e.uses ?? [],
})));
process.stdout.write(JSON.stringify(out, null, 2));
