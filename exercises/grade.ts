/**
 * The student's grading command.
 *
 *   npm test exercises [chapter|id …] [-- --watch]
 *   npm test exercises [chapter] -- --explain <id>     the page section and the contract of an exercise
 *   npm run grade -- [chapter|id …] [--format text|json|gradescope|junit] [--out FILE] [--graders DIR]
 *                    [--timeout MS] [--build-timeout MS] [--explain ID]
 *
 * Exit status: 0 when no attempted exercise lost points (a fresh checkout,
 * where nothing is attempted, passes), 1 when one did, 2 on a usage error.
 */
import { parseArgs } from "node:util";
import { watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHAPTERS } from "../lib/chapters.js";
import { loadGraders, ROOT, type LoadedGrader } from "./harness/discover.js";
import { runGraders, TIMEOUT_MS, BUILD_TIMEOUT_MS } from "./harness/runner.js";
import { explainExercise } from "./harness/explain.js";
import { formatScorecard, toGradescope, toJUnit } from "./harness/scorecard.js";

function usage(message: string): never {
  console.error(`${message}\nusage: npm test exercises [chapter|id …] [-- --watch]\n       npm run grade -- [chapter|id …] [--format text|json|gradescope|junit] [--out FILE] [--graders DIR] [--timeout MS]\nchapters: ${CHAPTERS.map((c) => c.slug).join(", ")}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      watch: { type: "boolean", default: false },
      format: { type: "string", default: "text" },
      out: { type: "string" },
      graders: { type: "string", multiple: true, default: [] },
      timeout: { type: "string", default: String(TIMEOUT_MS) },
      "build-timeout": { type: "string", default: String(BUILD_TIMEOUT_MS) },
      explain: { type: "string", multiple: true, default: [] },
    },
  });
} catch (err) {
  usage((err as Error).message);
}
const { values, positionals } = parsed;
const formats = ["text", "json", "gradescope", "junit"];
if (!formats.includes(values.format!)) usage(`--format must be one of ${formats.join(", ")}, got "${values.format}"`);
const timeoutMs = Number(values.timeout);
if (!Number.isInteger(timeoutMs) || timeoutMs < 100) usage(`--timeout must be an integer number of milliseconds >= 100, got "${values.timeout}"`);
const buildTimeoutMs = Number(values["build-timeout"]);
if (!Number.isInteger(buildTimeoutMs) || buildTimeoutMs < 100) usage(`--build-timeout must be an integer number of milliseconds >= 100, got "${values["build-timeout"]}"`);

/** Keeps the graders that match a filter: a chapter slug, a chapter number, or an exercise id. */
function select(all: LoadedGrader[], filters: string[]): LoadedGrader[] {
  if (filters.length === 0) return all;
  for (const f of filters) {
    const known = CHAPTERS.some((c) => c.slug === f || String(c.number) === f) || all.some((g) => g.exercise.id === f);
    if (!known) usage(`unknown chapter or exercise "${f}"`);
  }
  return all.filter(({ exercise: e }) =>
    filters.some((f) => e.chapter === f || e.id === f || String(CHAPTERS.find((c) => c.slug === e.chapter)?.number) === f));
}

let loaded: LoadedGrader[];
try {
  loaded = await loadGraders(values.graders);
} catch (err) {
  usage(`--graders: ${(err as Error).message}`);
}
if (values.graders!.length > 0) {
  const hidden = loaded.filter((g) => !g.graderFile.startsWith(join(ROOT, "exercises") + "/")).length;
  console.log(`loaded ${hidden} extra grader${hidden === 1 ? "" : "s"} from ${values.graders!.join(", ")}`);
}

if (values.explain!.length > 0) {
  for (const id of values.explain!) {
    const g = loaded.find((x) => x.exercise.id === id);
    if (!g) usage(`--explain: unknown exercise "${id}"`);
    console.log(await explainExercise(g.exercise, ROOT));
  }
  process.exit(0);
}

async function gradeOnce(): Promise<number> {
  // Watch mode re-reads the graders on every run (an instructor may be editing one).
  const graders = select(values.watch ? await loadGraders(values.graders) : loaded, positionals);
  if (graders.length === 0) {
    console.log(`No exercises yet for ${positionals.join(", ")}.`);
    return 0;
  }
  if (values.format === "text" && !values.out) {
    const deadline = graders.some((g) => g.exercise.build) ? `at most ${timeoutMs / 1000} s each, ${buildTimeoutMs / 1000} s for a build-it exercise` : `at most ${timeoutMs / 1000} s each`;
    console.log(`grading ${graders.length} exercise${graders.length === 1 ? "" : "s"} (each in its own worker, ${deadline}) …`);
  }
  const results = await runGraders(graders, { timeoutMs, buildTimeoutMs });
  const rendered =
    values.format === "gradescope" ? JSON.stringify(toGradescope(results), null, 2)
    : values.format === "junit" ? toJUnit(results)
    : values.format === "json" ? JSON.stringify(results, null, 2)
    : formatScorecard(results);
  if (values.out) {
    writeFileSync(values.out, rendered);
    console.log(formatScorecard(results));
    console.log(`\nwrote ${values.format} results to ${values.out}`);
  } else console.log(rendered);
  return results.some((r) => r.status !== "passed" && r.status !== "not-attempted") ? 1 : 0;
}

const code = await gradeOnce();
if (!values.watch) process.exit(code);

console.log("\nwatching exercises/ — save a file to grade again (Ctrl-C to stop)");
let timer: NodeJS.Timeout | undefined;
watch(join(ROOT, "exercises"), { recursive: true }, (_event, file) => {
  if (!file || !String(file).endsWith(".ts")) return;
  clearTimeout(timer);
  timer = setTimeout(async () => {
    console.clear();
    // Each run grades in fresh workers, so edited stubs are re-imported.
    await gradeOnce();
    console.log("\nwatching exercises/ — save a file to grade again (Ctrl-C to stop)");
  }, 200);
});
