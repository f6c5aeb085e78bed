/**
 * Renders results: the text scorecard for students, Gradescope's
 * results.json and JUnit XML for autograders.
 */
import { CHAPTERS } from "../../lib/chapters.js";
import type { FailureReport } from "./errors.js";
import type { ExerciseResult } from "./grade.js";

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const green = paint(32), red = paint(31), dim = paint(2), bold = paint(1), yellow = paint(33);

const MARK: Record<ExerciseResult["status"], string> = { passed: "✓", partial: "✗", failed: "✗", "not-attempted": "·", timeout: "✗", error: "✗" };

function leader(left: string, right: string, width = 64): string {
  const dots = Math.max(3, width - left.length - right.length);
  return `${left} ${dim(".".repeat(dots))} ${right}`;
}

function reportLines(r: FailureReport, indent: string): string[] {
  const out: string[] = [];
  if (r.call) out.push(`${indent}${r.call}`);
  if (r.detail) out.push(`${indent}  ${r.detail}`);
  if (r.expected !== undefined) out.push(`${indent}  expected ${r.expected}`);
  if (r.received !== undefined) out.push(`${indent}  received ${r.received}`);
  if (r.tolerance) out.push(`${indent}  tolerance ${r.tolerance}`);
  if (r.hint) out.push(`${indent}  ${yellow("hint:")} ${r.hint}`);
  return out;
}

/** A chapter's results in scorecard order: its "build it" exercise first, then the short ones by id. */
export function scorecardOrder(results: ExerciseResult[]): ExerciseResult[] {
  return [...results.filter((r) => r.build), ...results.filter((r) => !r.build)];
}

/**
 * The student's scorecard: per chapter, the "build it" exercise first with its
 * parts (its checks) indented beneath it, then the short exercises; the total.
 */
export function formatScorecard(results: ExerciseResult[]): string {
  const lines: string[] = [];
  let total = 0, max = 0;
  const count = { passed: 0, failed: 0, notAttempted: 0 };
  const chapters = [...new Set(results.map((r) => r.chapter))];
  const exerciseLines = (r: ExerciseResult, indent: string) => {
    const mark = r.status === "passed" ? green(MARK[r.status]) : r.status === "not-attempted" ? dim(MARK[r.status]) : red(MARK[r.status]);
    const right = r.status === "not-attempted" ? `not attempted ${r.earned}/${r.points}` : r.status === "timeout" ? `timed out ${r.earned}/${r.points}` : `${r.earned}/${r.points}`;
    lines.push(`${indent}${mark} ${leader(`${r.id} ${r.title}`, right, 62 - indent.length)}`);
    const sub = `${indent}    `;
    if (r.status === "passed") count.passed++;
    else if (r.status === "not-attempted") count.notAttempted++;
    else count.failed++;
    if (r.status === "not-attempted") lines.push(dim(`${sub}${r.file}: replace the notImplemented(…) line with your code`));
    if (r.message) lines.push(`${sub}${r.message}`);
    // A build-it exercise always shows its parts; a short one only when it lost points.
    const showChecks = r.build || (r.status !== "passed" && r.status !== "not-attempted");
    if (showChecks) {
      for (const c of r.checks) {
        if (c.status === "passed") { lines.push(dim(`${sub}✓ ${c.name} (${c.points})`)); continue; }
        if (c.status === "not-attempted" && r.status === "not-attempted") { lines.push(dim(`${sub}· ${c.name} (${c.points})`)); continue; }
        lines.push(`${sub}✗ ${c.name} (0/${c.points})${c.status === "not-attempted" ? " — still throws notImplemented" : ""}`);
        if (c.report) lines.push(...reportLines(c.report, `${sub}    `));
      }
    }
    if (r.output && r.status !== "passed") lines.push(dim(`${sub}your code printed:\n${r.output.split("\n").slice(0, 10).map((l) => `${sub}  ${l}`).join("\n")}`));
  };
  for (const slug of chapters) {
    const rs = scorecardOrder(results.filter((r) => r.chapter === slug));
    const ch = CHAPTERS.find((c) => c.slug === slug);
    const earned = rs.reduce((s, r) => s + r.earned, 0), points = rs.reduce((s, r) => s + r.points, 0);
    total += earned; max += points;
    lines.push("", bold(leader(`Chapter ${ch?.number ?? "?"} · ${slug}`, `${earned}/${points}`)));
    const builds = rs.filter((r) => r.build), short = rs.filter((r) => !r.build);
    if (builds.length > 0) {
      lines.push(`  ${bold("Build it")}`);
      for (const r of builds) exerciseLines(r, "  ");
      if (short.length > 0) lines.push(`  ${bold("Exercises")}`);
    }
    for (const r of short) exerciseLines(r, "  ");
  }
  lines.push("", bold(`Total ${total}/${max} points`) + ` · ${count.passed} passed, ${count.failed} failed, ${count.notAttempted} not attempted`);
  return lines.join("\n");
}

/** Gradescope's visibility values of a test. */
export const VISIBILITIES = ["hidden", "after_due_date", "after_published", "visible"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Options of {@link toGradescope}. */
export interface GradescopeOptions {
  /** Visibility of the tests of hidden graders (`--graders DIR`); default "after_published". */
  hiddenVisibility?: Visibility;
  /** Visibility of the tests of the public graders; default "visible". */
  visibility?: Visibility;
}

/**
 * Gradescope's results.json: one test per check (exercise-level failures as one test),
 * each with its `visibility`: hidden graders' tests "after_published" unless configured.
 */
export function toGradescope(results: ExerciseResult[], o: GradescopeOptions = {}): object {
  const tests = results.flatMap((r) => {
    const visibility = r.hidden ? o.hiddenVisibility ?? "after_published" : o.visibility ?? "visible";
    return r.checks.length
      ? r.checks.map((c) => ({ name: `${r.id} ${r.title}: ${c.name}`, score: c.earned, max_score: c.points, status: c.status === "passed" ? "passed" : "failed", visibility, output: c.report ? reportLines(c.report, "").join("\n") : c.status === "not-attempted" ? "not attempted" : "" }))
      : [{ name: `${r.id} ${r.title}`, score: 0, max_score: r.points, status: "failed", visibility, output: r.message ?? r.status }];
  });
  return { score: results.reduce((s, r) => s + r.earned, 0), max_score: results.reduce((s, r) => s + r.points, 0), tests };
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** JUnit XML: one testsuite per chapter, one testcase per check. */
export function toJUnit(results: ExerciseResult[]): string {
  const suites = [...new Set(results.map((r) => r.chapter))].map((slug) => {
    const rs = results.filter((r) => r.chapter === slug);
    const cases = rs.flatMap((r) => (r.checks.length ? r.checks.map((c) => ({ r, name: c.name, ok: c.status === "passed", skipped: c.status === "not-attempted", msg: c.report ? reportLines(c.report, "").join("\n") : "" })) : [{ r, name: r.status === "timeout" ? "timed out" : "could not grade", ok: false, skipped: false, msg: r.message ?? r.status }]));
    const failures = cases.filter((c) => !c.ok && !c.skipped).length, skipped = cases.filter((c) => c.skipped).length;
    const body = cases.map((c) => `    <testcase classname="${xml(`${c.r.id} ${c.r.title}`)}" name="${xml(c.name)}">${c.skipped ? "<skipped/>" : c.ok ? "" : `<failure message="${xml(c.msg.split("\n")[0] ?? "")}">${xml(c.msg)}</failure>`}</testcase>`);
    return `  <testsuite name="${xml(slug)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">\n${body.join("\n")}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join("\n")}\n</testsuites>\n`;
}
