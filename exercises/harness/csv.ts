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
 * Why an exercise earned nothing for a reason other than its checks, in one line: not
 * attempted, code that does not load (does not compile, a missing export), a timeout, a
 * refused import; "" when its checks were graded.
 * @example exerciseNote({ id: "2.1", status: "error", message: "could not load …: Expected \";\"" }) // "2.1 error: could not load …: Expected \";\""
 */
export function exerciseNote(r: Pick<ExerciseResult, "id" | "status" | "message"> | undefined, id: string): string {
  if (!r || r.status === "not-attempted") return `${id} not attempted`;
  if (r.status === "passed" || r.status === "partial" || (r.status === "failed" && !r.message)) return "";
  const text = (r.message ?? "").replace(/\s+/g, " ").trim();
  return `${id} ${r.status}${text ? `: ${text.length > 200 ? `${text.slice(0, 199)}…` : text}` : ""}`;
}

/**
 * The CSV: a header `submission,<id>,…,total,notes`, a row `max points,…`, then one row per
 * submission with the points earned per exercise, the total, and notes that tell a 0 apart:
 * an exercise not attempted, one whose code does not load (it does not compile), timed out
 * or was refused (`exerciseNote`, joined by " | ").
 * @param rows the submissions, in the order of the rows
 * @param exercises the graded exercises, in the order of the columns
 * @example toCsv([{ submission: "ada", files: [], results: [{ id: "2.1", earned: 8, status: "passed", … }] }], [ex21])
 *   // "submission,2.1,total,notes\r\nmax points,8,8,\r\nada,8,8,\r\n"
 */
export function toCsv(rows: readonly SubmissionResults[], exercises: readonly Exercise<AnyFunction>[]): string {
  const ids = exercises.map((e) => e.id);
  const lines = [
    ["submission", ...ids, "total", "notes"],
    ["max points", ...exercises.map((e) => totalPoints(e)), exercises.reduce((s, e) => s + totalPoints(e), 0), ""],
    ...rows.map((r) => {
      const results = ids.map((id) => r.results.find((x) => x.id === id));
      const points = results.map((x) => x?.earned ?? 0);
      const notes = results.map((x, i) => exerciseNote(x, ids[i])).filter(Boolean).join(" | ");
      return [r.submission, ...points, points.reduce((s, p) => s + p, 0), notes];
    }),
  ];
  return lines.map((l) => l.map(csvField).join(",")).join("\r\n") + "\r\n";
}
