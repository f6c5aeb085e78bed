// Data loader (runs in Node at build time): the metadata of every exercise,
// read from the graders themselves, so that a page box shows the same id,
// title, file, signature and points as the scorecard.
import { loadGraders } from "../../exercises/harness/discover.js";
import { totalPoints } from "../../exercises/harness/index.js";

const graders = await loadGraders();
const out = graders.map(({ exercise: e }) => ({
  id: e.id,
  title: e.title,
  chapter: e.chapter,
  file: e.file,
  exportName: e.exportName,
  signature: e.signature,
  summary: e.summary,
  points: totalPoints(e),
  checks: e.checks.map((c) => ({ name: c.name, points: c.points })),
}));
process.stdout.write(JSON.stringify(out, null, 2));
