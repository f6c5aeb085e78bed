/**
 * The instructor's summary of a class graded offline: one CSV row per
 * student submission, the points of each exercise and the total
 * (`npm run grade -- --format csv --submissions DIR`). Node-free.
 */
import { totalPoints, type AnyFunction, type Exercise } from "./define.js";
import type { ExerciseResult } from "./grade.js";

/** The results of one submission folder. */
export interface SubmissionResults {
  /** The folder's name (the student). */
  submission: string;
  /** The repository paths the student's files replaced. */
  files: string[];
  results: ExerciseResult[];
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export function csvField(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The CSV: a header `submission,<id>,…,total`, a row `max points,…`, then one row per
 * submission with the points earned per exercise (0 for one not attempted) and the total.
 * @param rows the submissions, in the order of the rows
 * @param exercises the graded exercises, in the order of the columns
 * @example toCsv([{ submission: "ada", files: [], results: [{ id: "2.1", earned: 8, … }] }], [ex21])
 *   // "submission,2.1,total\r\nmax points,8,8\r\nada,8,8\r\n"
 */
export function toCsv(rows: readonly SubmissionResults[], exercises: readonly Exercise<AnyFunction>[]): string {
  const ids = exercises.map((e) => e.id);
  const lines = [
    ["submission", ...ids, "total"],
    ["max points", ...exercises.map((e) => totalPoints(e)), exercises.reduce((s, e) => s + totalPoints(e), 0)],
    ...rows.map((r) => {
      const points = ids.map((id) => r.results.find((x) => x.id === id)?.earned ?? 0);
      return [r.submission, ...points, points.reduce((s, p) => s + p, 0)];
    }),
  ];
  return lines.map((l) => l.map(csvField).join(",")).join("\r\n") + "\r\n";
}
