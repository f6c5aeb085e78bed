/**
 * The student's last results, kept for the site (`npm run dev` shows them in the
 * exercise boxes and as progress bars on the home page: src/components/results.js).
 * `npm test exercises` merges each run into src/data/my-results.json, which git
 * ignores and no page references (so a build never copies it). Node only.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ExerciseResult } from "./grade.js";
import { ROOT } from "./discover.js";

/** The file, in the repository. */
export const RESULTS_FILE = join(ROOT, "src", "data", "my-results.json");

/** The file's content: the last result of each exercise graded, by id. */
export interface SavedResults {
  version: 1;
  results: Record<string, ExerciseResult & { gradedAt: string }>;
}

/**
 * Merges `results` into the file: each graded exercise replaces its previous entry, the
 * others stay (grading one chapter keeps the others' results). What the student's code
 * printed is left out. Does nothing when the file's folder does not exist (a copy of the
 * course without its site, as in the Gradescope zip).
 * @returns true when the file was written
 */
export function saveResults(results: readonly ExerciseResult[], file = RESULTS_FILE, now = new Date()): boolean {
  if (!existsSync(dirname(file))) return false;
  let saved: SavedResults = { version: 1, results: {} };
  try {
    const old = JSON.parse(readFileSync(file, "utf8")) as SavedResults;
    if (old?.version === 1 && old.results && typeof old.results === "object") saved = old;
  } catch {
    // no file yet, or not ours: start again
  }
  for (const r of results) {
    const { output: _output, ...rest } = r;
    saved.results[r.id] = { ...rest, gradedAt: now.toISOString() };
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(saved, null, 1));
  renameSync(tmp, file); // the preview never reads half a file
  return true;
}
