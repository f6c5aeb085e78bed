/**
 * Finds graders (`exercises/<chapter>/<name>.test.ts`), their stubs and their
 * mutants. Node only.
 */
import { readdirSync, existsSync, statSync } from "node:fs";
import { join, dirname, basename, resolve, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AnyFunction, Exercise, Mutant } from "./define.js";

/** The repository root (two folders above this file). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A grader file and what it default-exports. */
export interface LoadedGrader {
  /** Absolute path of the grader file. */
  graderFile: string;
  exercise: Exercise<AnyFunction>;
  /** Loaded from a `--graders` folder (a course's hidden graders), not from exercises/. */
  hidden?: boolean;
}

/**
 * Absolute paths of every grader under `dir` (default exercises/): files
 * `*.test.ts` in `dir` itself or one folder down (`<chapter>/<name>.test.ts`),
 * sorted; the harness and mutants folders are skipped.
 * @throws Error `no folder of graders at <dir>` when `dir` is not a folder
 */
export function findGraderFiles(dir = join(ROOT, "exercises")): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`no folder of graders at ${dir}`);
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (depth < 1 && name !== "harness" && name !== "mutants" && name !== "node_modules") walk(p, depth + 1);
      } else if (name.endsWith(".test.ts")) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

/**
 * Imports a grader file and checks that it default-exports an exercise.
 * @param fresh import a new copy (after the file changed), not the cached module
 */
export async function loadGrader(graderFile: string, fresh = false): Promise<LoadedGrader> {
  const mod = await import(pathToFileURL(graderFile).href + (fresh ? `?v=${Date.now()}` : ""));
  const exercise = mod.default as Exercise<AnyFunction> | undefined;
  if (!exercise || typeof exercise !== "object" || !Array.isArray(exercise.checks)) {
    throw new Error(`${graderFile} must default-export defineExercise({...})`);
  }
  return { graderFile, exercise };
}

/**
 * Loads every grader (plus those under `extraDirs`), sorted by exercise id.
 * @param chapters load only the public graders of these chapters (exercises/<slug>/) and of the
 *   chapters of the hidden graders (so that a duplicate id is still found); default: all
 * @throws Error `exercise id <id> is defined twice: <file> and <file>`
 */
export async function loadGraders(extraDirs: string[] = [], chapters?: readonly string[]): Promise<LoadedGrader[]> {
  const all = findGraderFiles();
  const hiddenFiles = extraDirs.flatMap((d) => findGraderFiles(resolve(d))).filter((f) => !all.includes(f));
  const hidden = await Promise.all(hiddenFiles.map(async (f) => ({ ...(await loadGrader(f)), hidden: true })));
  const wanted = chapters && new Set([...chapters, ...hidden.map((g) => g.exercise.chapter)]);
  const publicFiles = wanted ? all.filter((f) => wanted.has(relative(join(ROOT, "exercises"), f).split(sep)[0])) : all;
  const loaded = [...(await Promise.all(publicFiles.map((f) => loadGrader(f)))), ...hidden];
  const seen = new Map<string, string>();
  for (const g of loaded) {
    const other = seen.get(g.exercise.id);
    if (other) throw new Error(`exercise id ${g.exercise.id} is defined twice: ${other} and ${g.graderFile}`);
    seen.set(g.exercise.id, g.graderFile);
  }
  return loaded.sort((a, b) => compareIds(a.exercise.id, b.exercise.id));
}

/** Orders "1.2" before "1.10" before "2.1". */
export function compareIds(a: string, b: string): number {
  const [a1, a2] = a.split(".").map(Number);
  const [b1, b2] = b.split(".").map(Number);
  return a1 - b1 || a2 - b2;
}

/** The mutants file of a grader: `<dir>/mutants/<name>.ts`. */
export function mutantsFileOf(graderFile: string): string {
  return join(dirname(graderFile), "mutants", basename(graderFile).replace(/\.test\.ts$/, ".ts"));
}

/** Loads the `mutants` export of a grader's mutants file ({} when there is none). */
export async function loadMutants(graderFile: string): Promise<Record<string, Mutant>> {
  const file = mutantsFileOf(graderFile);
  if (!existsSync(file)) return {};
  const mod = await import(pathToFileURL(file).href);
  return (mod.mutants ?? {}) as Record<string, Mutant>;
}

/**
 * The exercises to grade again after `file` changed: those whose stub, grader or mutants
 * it is; for another file under exercises/<chapter>/ (a helper module of the student's),
 * every selected exercise of that chapter; for the harness, all of them.
 */
export function affectedBy(graders: LoadedGrader[], file: string): LoadedGrader[] {
  const own = graders.filter((g) => [resolve(ROOT, g.exercise.file), g.graderFile, mutantsFileOf(g.graderFile)].includes(file));
  if (own.length > 0) return own;
  const rel = relative(join(ROOT, "exercises"), file);
  if (rel.startsWith("..")) return [];
  const [first] = rel.split(sep);
  if (first === "harness") return graders;
  return graders.filter((g) => g.exercise.chapter === first);
}

