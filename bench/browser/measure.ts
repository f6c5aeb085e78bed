/**
 * Timing and printing helpers of the browser benchmarks (npm run bench:browser):
 * medians of a few timed runs after one warm-up run (which compiles kernels), taken
 * round-robin when several implementations are compared (the machine's load drifts:
 * each implementation sees the same drift), and plain-text tables printed through
 * console.log (the runner echoes them).
 */

/** Median wall-clock milliseconds of `reps` runs of `fn` after one untimed warm-up run; fewer runs when one takes over `slowMs`. */
export async function medianMs(fn: () => unknown | Promise<unknown>, reps = 5, slowMs = 2000): Promise<number> {
  const t0 = performance.now();
  await fn();
  const warm = performance.now() - t0;
  const n = warm > slowMs ? 1 : reps;
  const ts: number[] = [];
  for (let r = 0; r < n; r++) {
    const t = performance.now();
    await fn();
    ts.push(performance.now() - t);
    await new Promise((res) => setTimeout(res, 0)); // let the page breathe between runs
  }
  ts.sort((a, b) => a - b);
  return ts[Math.floor((ts.length - 1) / 2)];
}

/**
 * Median milliseconds of each function: one untimed warm-up run each, then `reps` rounds in which
 * every function runs once, in turn (fewer rounds when a warm-up took over `slowMs`).
 */
export async function roundRobinMs(fns: Record<string, () => unknown | Promise<unknown>>, reps = 5, slowMs = 2000): Promise<Record<string, number>> {
  const names = Object.keys(fns);
  let slowest = 0;
  for (const n of names) {
    const t0 = performance.now();
    await fns[n]();
    slowest = Math.max(slowest, performance.now() - t0);
  }
  const rounds = slowest > slowMs ? 1 : reps;
  const ts: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const n of names) {
      const t = performance.now();
      await fns[n]();
      ts[n].push(performance.now() - t);
      await new Promise((res) => setTimeout(res, 0));
    }
  }
  return Object.fromEntries(names.map((n) => [n, ts[n].sort((a, b) => a - b)[Math.floor((ts[n].length - 1) / 2)]]));
}

/** A table as aligned text: a title line, the header, a rule, one line per row. */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  if (rows.length === 0) { console.log(`${title}\n  (no rows)`); return; }
  const cols = Object.keys(rows[0]);
  const cell = (v: string | number | undefined) => (typeof v === "number" ? fmt(v) : String(v ?? ""));
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => "  " + vals.map((v, i) => v.padStart(w[i])).join("  ");
  console.log([`\n${title}`, line(cols), "  " + w.map((n) => "-".repeat(n)).join("  "), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join("\n"));
}

/** Numbers for tables: 3 significant digits, exponent form for tiny values; NaN (a run left out) prints as "not run". */
export function fmt(v: number): string {
  if (Number.isNaN(v)) return "not run";
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 1e-3) return v.toExponential(1);
  if (Math.abs(v) >= 100) return v.toFixed(0);
  return v.toPrecision(3);
}
