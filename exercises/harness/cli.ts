/**
 * The grade command (exercises/grade.ts), as a function that tests can call
 * in process: it parses the arguments, prints through `io`, and returns the
 * exit status (or null in watch mode, which keeps running). Node only.
 *
 * Exit status: 0 when grading ran and its results were printed or written
 * (whatever the score); 1 when grading could not run (a grader that does not
 * load, an output file that cannot be written); 2 on a usage error (an unknown
 * flag, chapter or exercise: the message suggests the nearest valid name).
 * With --strict, also 1 when an attempted exercise lost points; with --require-full,
 * 1 unless every selected exercise earned all its points (GitHub Classroom: exit 0 = points).
 */
import { parseArgs } from "node:util";
import { existsSync, readdirSync, statSync, watch, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { CHAPTERS } from "../../lib/chapters.js";
import { isGraded } from "./define.js";
import { affectedBy, loadGrader, loadGraders, ROOT, type LoadedGrader } from "./discover.js";
import { runGraders, TIMEOUT_MS, BUILD_TIMEOUT_MS } from "./runner.js";
import { explainExercise } from "./explain.js";
import { didYouMean } from "../../lib/suggest.js";
import { formatScorecard, toGradescope, toJUnit, VISIBILITIES, type Visibility } from "./scorecard.js";
import type { ExerciseResult } from "./grade.js";
import { overlaySubmission } from "./submission.js";
import { saveResults } from "./results.js";
import { toCsv, type SubmissionResults } from "./csv.js";

/** Where the command prints (the console by default). */
export interface CommandIO {
  log(text: string): void;
  error(text: string): void;
  clear?(): void;
}

/** Options of {@link gradeCommand}. */
export interface CommandOptions {
  /** Merge each grading of the repository's stubs into this results file (harness/results.ts; the student's command). */
  saveResults?: string;
}

/** Ends the command with an exit status (thrown by usage() and cannotGrade()). */
class Exit extends Error {
  constructor(readonly code: number, message: string) { super(message); }
}

export const USAGE = `usage: npm test exercises [chapter|id …] [-- --watch] [-- --explain ID]
       npm run grade -- [chapter|id …] [--format text|json|gradescope|junit|csv] [--out FILE] [--graders DIR]
                        [--hidden-visibility ${VISIBILITIES.join("|")}] [--timeout MS] [--build-timeout MS] [--explain ID] [--strict] [--require-full]
       npm run grade -- [chapter|id …] --submissions DIR [--format csv|json] [--out FILE]   (one row per student folder in DIR)`;

/** The flags, for "did you mean" (parseArgs below takes the same names). */
const FLAGS = ["watch", "format", "out", "graders", "hidden-visibility", "timeout", "build-timeout", "explain", "strict", "require-full", "submissions", "help"];

function usage(message: string): never {
  throw new Exit(2, `${message}\n${USAGE}\nchapters: ${CHAPTERS.map((c) => c.slug).join(", ")}`);
}

/** Grading could not run: say why, exit 1. */
function cannotGrade(message: string): never {
  throw new Exit(1, `grading could not run: ${message}`);
}

/**
 * The chapters that a list of filters (slugs, chapter numbers, exercise ids) needs, so that
 * only their graders are loaded; undefined (all chapters) when there is no filter or one
 * that names no chapter (its "did you mean" needs every name).
 * @example chaptersOf(["precision", "2.1"]) // ["precision", "memory"]
 */
export function chaptersOf(filters: readonly string[]): string[] | undefined {
  if (filters.length === 0) return undefined;
  const out: string[] = [];
  for (const f of filters) {
    const n = /^(\d+)(?:\.\d+)?$/.exec(f)?.[1];
    const c = CHAPTERS.find((ch) => ch.slug === f || String(ch.number) === n);
    if (!c) return undefined;
    out.push(c.slug);
  }
  return [...new Set(out)];
}

/**
 * The graders a run grades: those matching a filter (a chapter slug, a chapter number, or an
 * exercise id), all with no filter. A scaffold's placeholder (define.ts, `placeholder`) is graded
 * only when named by its id: it counts in no scorecard total, Gradescope result or CSV row.
 * @example selectGraders(graders, ["precision"]) // precision's exercises, placeholders left out
 */
export function selectGraders<G extends Pick<LoadedGrader, "exercise">>(all: readonly G[], filters: readonly string[]): G[] {
  return all.filter(({ exercise: e }) => filters.includes(e.id) || (isGraded(e) &&
    (filters.length === 0 || filters.some((f) => e.chapter === f || String(CHAPTERS.find((c) => c.slug === e.chapter)?.number) === f))));
}

/**
 * Runs the grade command on `argv` (the arguments after the script's name).
 * @returns the exit status, or null when watching (the process keeps running)
 */
export async function gradeCommand(argv: string[], io: CommandIO = console, options: CommandOptions = {}): Promise<number | null> {
  try {
    return await run(argv, io, options);
  } catch (err) {
    if (err instanceof Exit) {
      io.error(err.message);
      return err.code;
    }
    throw err;
  }
}

async function run(argv: string[], io: CommandIO, options: CommandOptions): Promise<number | null> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        watch: { type: "boolean", default: false },
        format: { type: "string", default: "text" },
        out: { type: "string" },
        graders: { type: "string", multiple: true, default: [] },
        "hidden-visibility": { type: "string", default: "after_published" },
        timeout: { type: "string", default: String(TIMEOUT_MS) },
        "build-timeout": { type: "string", default: String(BUILD_TIMEOUT_MS) },
        explain: { type: "string", multiple: true, default: [] },
        strict: { type: "boolean", default: false },
        "require-full": { type: "boolean", default: false },
        submissions: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (err) {
    const e = err as Error & { code?: string };
    const flag = /'(-{1,2}[^'\s]+)'/.exec(e.message)?.[1];
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) {
      usage(`unknown flag ${flag}${didYouMean(flag.replace(/^-+/, "").split("=")[0], FLAGS, "--")}`);
    }
    usage(e.message);
  }
  const { values, positionals } = parsed;
  if (values.help) { io.log(USAGE); return 0; }
  const formats = ["text", "json", "gradescope", "junit", "csv"];
  if (!formats.includes(values.format!)) usage(`--format must be one of ${formats.join(", ")}, got "${values.format}"${didYouMean(values.format!, formats)}`);
  const hiddenVisibility = values["hidden-visibility"] as Visibility;
  if (!VISIBILITIES.includes(hiddenVisibility)) usage(`--hidden-visibility must be one of ${VISIBILITIES.join(", ")}, got "${hiddenVisibility}"${didYouMean(hiddenVisibility, VISIBILITIES)}`);
  const timeoutMs = Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100) usage(`--timeout must be an integer number of milliseconds >= 100, got "${values.timeout}"`);
  const buildTimeoutMs = Number(values["build-timeout"]);
  if (!Number.isInteger(buildTimeoutMs) || buildTimeoutMs < 100) usage(`--build-timeout must be an integer number of milliseconds >= 100, got "${values["build-timeout"]}"`);

  if (values.submissions !== undefined) {
    if (!["csv", "json", "text"].includes(values.format!)) usage(`--submissions writes --format csv or json, got "${values.format}"`);
    if (values.watch) usage("--submissions grades once: it does not take --watch");
    if (!existsSync(values.submissions) || !statSync(values.submissions).isDirectory()) usage(`--submissions: no folder at ${values.submissions}`);
  }

  // Before grading: an output file that could not be written would waste the whole run.
  if (values.out && !existsSync(dirname(resolve(values.out)))) cannotGrade(`could not write ${values.out}: there is no folder ${dirname(resolve(values.out))}`);

  let loaded: LoadedGrader[];
  try {
    loaded = await loadGraders(values.graders, chaptersOf([...positionals, ...values.explain!]));
  } catch (err) {
    const message = (err as Error).message;
    if (/^no folder of graders at/.test(message)) usage(`--graders: ${message}`);
    cannotGrade(`could not load the graders: ${message}`);
  }
  if (values.graders!.length > 0) {
    const hidden = loaded.filter((g) => g.hidden).length;
    io.log(`loaded ${hidden} extra grader${hidden === 1 ? "" : "s"} from ${values.graders!.join(", ")}`);
  }

  /** Every name a filter may take: chapter slugs and numbers, exercise ids. */
  const names = () => [...CHAPTERS.map((c) => c.slug), ...CHAPTERS.map((c) => String(c.number)), ...loaded.map((g) => g.exercise.id)];

  /** Keeps the graders that match a filter (selectGraders), after checking every filter is a name. */
  function select(all: LoadedGrader[], filters: string[]): LoadedGrader[] {
    for (const f of filters) {
      if (!names().includes(f)) usage(`unknown chapter or exercise "${f}"${didYouMean(f, names())}`);
    }
    return selectGraders(all, filters);
  }

  if (values.explain!.length > 0) {
    const ids = loaded.map((g) => g.exercise.id);
    for (const id of values.explain!) {
      const g = loaded.find((x) => x.exercise.id === id);
      if (!g) usage(`--explain: unknown exercise "${id}"${didYouMean(id, ids)}`);
      io.log(await explainExercise(g.exercise, ROOT));
    }
    return 0;
  }

  const selected = select(loaded, positionals);

  if (values.submissions !== undefined) {
    // One private tree per student folder: their files over the stubs, graded like the repository's.
    const dir = resolve(values.submissions);
    const students = readdirSync(dir).filter((n) => !n.startsWith(".") && statSync(join(dir, n)).isDirectory()).sort();
    const stubs = [...new Set(loaded.map((g) => g.exercise.file))];
    const all: SubmissionResults[] = [];
    for (const student of students) {
      const tree = overlaySubmission(join(dir, student), ROOT, stubs);
      try {
        const results = await runGraders(selected, { timeoutMs, buildTimeoutMs, target: { kind: "stub", root: tree.root } });
        all.push({ submission: student, files: tree.files.map((f) => f.to), results });
        // Progress goes to stderr when the CSV itself is printed on stdout.
        (values.out ? io.log : io.error).call(io, `graded ${student}: ${results.reduce((s, r) => s + r.earned, 0)}/${results.reduce((s, r) => s + r.points, 0)} (${tree.files.length} file${tree.files.length === 1 ? "" : "s"} of theirs)`);
      } finally {
        tree.remove();
      }
    }
    const text = values.format === "json" ? JSON.stringify(all, null, 2) : toCsv(all, selected.map((g) => g.exercise));
    if (values.out) {
      try { writeFileSync(values.out, text); } catch (err) { cannotGrade(`could not write ${values.out}: ${(err as Error).message}`); }
      io.log(`wrote ${values.format === "json" ? "json" : "csv"} results of ${all.length} submission${all.length === 1 ? "" : "s"} to ${values.out}`);
    } else io.log(text);
    return 0;
  }

  function render(results: ExerciseResult[]): string {
    return values.format === "gradescope" ? JSON.stringify(toGradescope(results, { hiddenVisibility }), null, 2)
      : values.format === "junit" ? toJUnit(results)
      : values.format === "json" ? JSON.stringify(results, null, 2)
      : values.format === "csv" ? toCsv([{ submission: ".", files: [], results }], selected.map((g) => g.exercise))
      : formatScorecard(results);
  }

  /** Prints or writes the results; the exit status they give. */
  function report(results: ExerciseResult[]): number {
    if (options.saveResults) {
      try { saveResults(results, options.saveResults); } catch (err) { io.error(`could not save your results for the site: ${(err as Error).message}`); }
    }
    if (values.out) {
      try {
        writeFileSync(values.out, render(results));
      } catch (err) {
        cannotGrade(`could not write ${values.out}: ${(err as Error).message}`);
      }
      io.log(formatScorecard(results));
      io.log(`\nwrote ${values.format} results to ${values.out}`);
    } else io.log(render(results));
    const lost = results.some((r) => r.status !== "passed" && r.status !== "not-attempted");
    // --require-full: a pass/fail autograder (GitHub Classroom's command grader) gives the points on exit 0 only.
    const short = results.some((r) => r.earned < r.points);
    return (values.strict && lost) || (values["require-full"] && short) ? 1 : 0;
  }

  async function grade(graders: LoadedGrader[]): Promise<ExerciseResult[]> {
    if (values.format === "text" && !values.out) {
      const deadline = graders.some((g) => g.exercise.build) ? `at most ${timeoutMs / 1000} s each, ${buildTimeoutMs / 1000} s for a build-it exercise` : `at most ${timeoutMs / 1000} s each`;
      io.log(`grading ${graders.length} exercise${graders.length === 1 ? "" : "s"} (each in its own worker, ${deadline}) …`);
    }
    return runGraders(graders, { timeoutMs, buildTimeoutMs });
  }

  if (selected.length === 0) {
    io.log(`No exercises yet for ${positionals.join(", ")}.`);
    if (!values.watch) return 0;
  }
  const current = selected;
  let results = await grade(current);
  const code = report(results);
  if (!values.watch) return code;

  const dirs = [join(ROOT, "exercises"), ...values.graders!.map((d) => resolve(d))];
  const prompt = () => io.log(`\nwatching ${dirs.map((d) => relative(ROOT, d) || ".").join(", ")}: save a file to grade its exercise again (Ctrl-C to stop)`);
  prompt();
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  for (const dir of dirs) {
    watch(dir, { recursive: true }, (_event, name) => {
      if (!name || !/\.[cm]?[jt]s$/.test(String(name))) return;
      changed.add(resolve(dir, String(name)));
      clearTimeout(timer);
      timer = setTimeout(regrade, 200);
    });
  }

  async function regrade(): Promise<void> {
    if (running) { timer = setTimeout(regrade, 200); return; }
    running = true;
    try {
      await regradeChanged();
    } catch (err) {
      io.error(err instanceof Exit ? err.message : `could not grade again: ${(err as Error)?.stack ?? String(err)}`);
    } finally {
      running = false;
    }
  }

  async function regradeChanged(): Promise<void> {
    const files = [...changed];
    changed.clear();
    // A changed grader is read again, so that its title, points and checks are current.
    for (const f of files) {
      const i = current.findIndex((g) => g.graderFile === f);
      if (i >= 0) {
        try { current[i] = { ...(await loadGrader(f, true)), hidden: current[i].hidden }; } catch (err) { io.error(`could not reload ${relative(ROOT, f)}: ${(err as Error).message}`); }
      }
    }
    const todo = [...new Set(files.flatMap((f) => affectedBy(current, f)))];
    if (todo.length > 0) {
      const fresh = await grade(todo);
      results = results.map((r) => fresh.find((x) => x.id === r.id) ?? r);
      io.clear?.();
      report(results);
      io.log(`\nre-graded ${todo.map((g) => g.exercise.id).join(", ")} (${files.map((f) => relative(ROOT, f)).join(", ")} changed)`);
      prompt();
    }
  }
  return null;
}
