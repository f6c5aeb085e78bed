// Proves every grader: the lib reference earns full marks (a "build it"
// exercise too, its whole run), every mutant loses points and fails the check
// it names (`caughtBy`), a "build it" exercise has at least three mutants, and
// the untouched stub is "not attempted". A grader that cannot fail, or that
// fails the reference, is a defect caught here.
import { describe, it, expect } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compareIds, findGraderFiles, loadGrader, loadMutants, mutantsFileOf, ROOT } from "../exercises/harness/discover.js";
import { gradeExercise, mutantParts, totalPoints } from "../exercises/harness/index.js";
import { CHAPTERS } from "../lib/chapters.js";
import { pageSections } from "../exercises/harness/explain.js";
import { refusalMessage, runtimeImports, solutionImports, solutionPaths } from "../exercises/harness/policy.js";

const files = findGraderFiles();

/**
 * Whether a stub is as the course ships it (it still calls `notImplemented("<id>")`). A stub the
 * student has written is graded by `npm test exercises` (in a worker, under a deadline), never here:
 * npm test does not depend on the student's edits.
 */
const untouched = (exercise: { id: string; file: string }) => readFileSync(resolve(ROOT, exercise.file), "utf8").includes(`notImplemented("${exercise.id}")`);

/** Points of an exercise by the kind of work it asks (exercises/README.md, "Points"). */
const POINTS = { transcription: 8, concept: 12, build: 24 } as const;

/** A "build it" exercise has at least this many mutants, each naming its check. */
const BUILD_MIN_MUTANTS = 3;

/**
 * lib code that graders use to set up a run (a model and its data, a seeded generator, a model's
 * config) and that holds none of the importing graders' references.
 */
// Support code a grader may use whatever its chapter: models, seeded data, presets, the plain attention oracle.
const SUPPORT = ["lib/nn/", "lib/random.ts", "lib/amp/charLmSetup.ts", "lib/memory/index.ts", "lib/memory/loadPresetText.ts",
  "lib/flash-attention/randomTensor.ts", "lib/flash-attention/referenceAttention.ts", "lib/flash-attention/referenceAttentionBackward.ts"];

describe("graders", () => {
  it("findGraderFiles() finds the course's graders", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it("exercise ids are unique and start with their chapter's number", async () => {
    const ids = new Set<string>();
    for (const f of files) {
      const { exercise } = await loadGrader(f);
      const chapter = CHAPTERS.find((c) => c.slug === exercise.chapter);
      expect(chapter, `${f}: unknown chapter ${exercise.chapter}`).toBeDefined();
      expect(exercise.id.split(".")[0], `${f}: id ${exercise.id}`).toBe(String(chapter!.number));
      expect(ids.has(exercise.id), `duplicate id ${exercise.id}`).toBe(false);
      ids.add(exercise.id);
      expect(f.startsWith(resolve(ROOT, "exercises", exercise.chapter)), `${f} lives outside exercises/${exercise.chapter}/`).toBe(true);
    }
  });

  it("a chapter has at most one \"build it\" exercise, and it names its page section", async () => {
    const builds = new Map<string, string[]>();
    for (const f of files) {
      const { exercise } = await loadGrader(f);
      if (!exercise.build) continue;
      builds.set(exercise.chapter, [...(builds.get(exercise.chapter) ?? []), exercise.id]);
      expect(exercise.section, `build-it exercise ${exercise.id} names the page section that derives it (section: "anchor")`).toBeTruthy();
    }
    for (const [chapter, ids] of builds) expect(ids, `chapter ${chapter} has more than one build-it exercise`).toHaveLength(1);
  });

  it("points follow the kind of work: transcription 8, concept 12, build it 24 (exercises/README.md, \"Points\")", async () => {
    const all = (await Promise.all(files.map(async (f) => (await loadGrader(f)).exercise))).filter((e) => !e.placeholder);
    // every graded exercise says its kind (a build it says so by `build`): the weighting covers them all
    expect(all.filter((e) => !e.build && !e.kind).map((e) => e.id), "exercises without a kind (transcription, concept or build: true)").toEqual([]);
    for (const e of all) {
      const kind = e.build ? "build" : e.kind!;
      expect(totalPoints(e), `${e.id} (${kind})`).toBe(POINTS[kind]);
    }
  });

  it("at most one exercise in three is transcription; every chapter has one build it and at least two worked out", async () => {
    const all = (await Promise.all(files.map(async (f) => (await loadGrader(f)).exercise))).filter((e) => !e.placeholder);
    const kindOf = (e: (typeof all)[number]) => (e.build ? "build" : e.kind);
    const transcription = all.filter((e) => e.kind === "transcription");
    expect(transcription.length * 3, `transcription exercises: ${transcription.map((e) => e.id).join(", ")}`).toBeLessThanOrEqual(all.length);
    for (const chapter of new Set(all.map((e) => e.chapter))) {
      const mine = all.filter((e) => e.chapter === chapter);
      if (!mine.every(kindOf)) continue; // reported by the test above
      expect(mine.filter((e) => e.build), `${chapter}: one build it`).toHaveLength(1);
      expect(mine.filter((e) => e.kind === "concept").length, `${chapter}: exercises where the concept must be worked out`).toBeGreaterThanOrEqual(2);
    }
  });

  it("exercises/README.md's table of kinds and points is the graders' (every exercise in it once)", async () => {
    const all = (await Promise.all(files.map(async (f) => (await loadGrader(f)).exercise))).filter((e) => !e.placeholder);
    const text = readFileSync(resolve(ROOT, "exercises/README.md"), "utf8");
    const rows = [...text.matchAll(/^\| (\d+) ([a-z-]+) \|([^|]*)\|([^|]*)\|([^|]*)\| (\d+) \|$/gm)];
    const ids = (cell: string) => cell.split(",").map((x) => x.trim()).filter(Boolean);
    const table = rows.map((r) => ({ chapter: r[2], transcription: ids(r[3]), concept: ids(r[4]), build: ids(r[5]), points: Number(r[6]) }));
    const actual = [...new Set(all.map((e) => e.chapter))].map((chapter) => {
      const mine = all.filter((e) => e.chapter === chapter);
      const of = (k: string) => mine.filter((e) => (e.build ? "build" : e.kind) === k).map((e) => e.id).sort(compareIds);
      return { chapter, transcription: of("transcription"), concept: of("concept"), build: of("build"), points: mine.reduce((s, e) => s + totalPoints(e), 0) };
    });
    const byChapter = (a: { chapter: string }, b: { chapter: string }) => a.chapter.localeCompare(b.chapter);
    expect(table.sort(byChapter), "update the table in exercises/README.md, \"Points\"").toEqual(actual.sort(byChapter));
  });

  for (const file of files) {
    const name = file.slice(ROOT.length + 1);
    describe(name, () => {
      it("the lib reference earns full marks (a build-it exercise: its whole run)", async () => {
        const { exercise } = await loadGrader(file);
        const r = await gradeExercise(exercise, exercise.reference);
        const failed = r.checks.filter((c) => c.status !== "passed").map((c) => `${c.name}: ${JSON.stringify(c.report)}`);
        expect(failed, "checks the reference fails").toEqual([]);
        expect(r.earned).toBe(totalPoints(exercise));
      });

      it("its page section exists, and its stub (as shipped) does not import the reference (solutions policy)", async () => {
        const { exercise } = await loadGrader(file);
        if (exercise.section) {
          const page = resolve(ROOT, "src", `${exercise.chapter}.md`);
          const ids = (await pageSections(readFileSync(page, "utf8"))).map((s) => s.id);
          expect(ids, `section "${exercise.section}" of ${exercise.id} is not a heading id of src/${exercise.chapter}.md`).toContain(exercise.section);
        }
        const stubFile = resolve(ROOT, exercise.file);
        if (!untouched(exercise)) return; // the student's file: the grader refuses a stub that imports its solution
        const cheats = await solutionImports(exercise, stubFile, readFileSync(stubFile, "utf8"), ROOT);
        expect(cheats, cheats.length ? refusalMessage(exercise.file, cheats, exercise) : "").toEqual([]);
      });

      it("every lib module it imports is its solution, a building block it names (`uses`), its chapter's or support code", async () => {
        // The load guard (harness/load-guard.ts) refuses what a student's code loads from `solution`:
        // a reference kept in another chapter's folder (lib/collectives) must be named there.
        const { exercise } = await loadGrader(file);
        const covered = [...solutionPaths(exercise), ...(exercise.uses ?? []), `lib/${exercise.chapter}/`, ...SUPPORT];
        const imports = (await runtimeImports(readFileSync(file, "utf8"))).filter((s) => s.startsWith("../../lib/"))
          .map((s) => s.slice("../../".length).replace(/\.js$/, ".ts"));
        const loose = imports.filter((p) => !covered.some((c) => (c.endsWith("/") ? p.startsWith(c) : p === c.split("#")[0])));
        expect(loose, `${exercise.id} imports lib code that is neither its solution nor a building block it names: add each to \`solution\` (it holds the reference) or \`uses\``).toEqual([]);
      });

      it("the stub exists; as shipped, it exports the function and is not attempted", async () => {
        const { exercise } = await loadGrader(file);
        const stubFile = resolve(ROOT, exercise.file);
        expect(existsSync(stubFile), `${exercise.file} exists`).toBe(true);
        // A student's own code may loop or throw: it is graded by `npm test exercises`, in a worker.
        if (!untouched(exercise)) return;
        const mod = await import(pathToFileURL(stubFile).href);
        expect(typeof mod[exercise.exportName], `${exercise.file} exports ${exercise.exportName}`).toBe("function");
        expect((await gradeExercise(exercise, mod[exercise.exportName])).status).toBe("not-attempted");
      });

      it("has mutants (three or more for a build-it exercise); each loses points and fails the check it names", async () => {
        const { exercise } = await loadGrader(file);
        const mutants = await loadMutants(file);
        expect(Object.keys(mutants).length, `mutants in ${mutantsFileOf(file).slice(ROOT.length + 1)}`).toBeGreaterThanOrEqual(exercise.build ? BUILD_MIN_MUTANTS : 1);
        const names = exercise.checks.map((c) => c.name);
        for (const [what, m] of Object.entries(mutants)) {
          const { impl, caughtBy } = mutantParts(m);
          expect(caughtBy.length, `mutant "${what}" of ${exercise.id} must name the check that catches it: { impl, caughtBy: "check name" }`).toBeGreaterThan(0);
          for (const name of caughtBy) expect(names, `mutant "${what}" names check "${name}", which exercise ${exercise.id} does not have`).toContain(name);
          // Only the checks that must catch it run (a failed check loses its points); an unnamed
          // mutant runs until a check fails. Keeps the self-check fast as build-it runs grow.
          const r = await gradeExercise(exercise, impl, caughtBy.length ? { only: caughtBy } : { failFast: true });
          expect(r.checks.some((c) => c.status === "failed"), `mutant "${what}" earned full marks: the grader cannot catch this mistake`).toBe(true);
          for (const name of caughtBy) {
            expect(r.checks.find((c) => c.name === name)!.status, `mutant "${what}" must be caught by check "${name}"`).toBe("failed");
          }
        }
      });
    });
  }
});
