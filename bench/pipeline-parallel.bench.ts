/**
 * Pipeline-parallel benchmarks: generating and validating schedules for p = 64 stages and
 * m = 1024 micro-batches (events per second, fastest of 3 runs after a warm-up). Validation includes the
 * memory limit (m in flight for GPipe, p for 1F1B and ZB-H1). Prints figures; asserts nothing.
 */
import { generateSchedule, checkSchedule, type ScheduleName } from "../lib/pipeline-parallel/index.js";

/** Fastest of `runs` timed calls, in ms (the machine is shared: the minimum is the least disturbed run). */
function best(fn: () => unknown, runs = 3): number {
  let ms = Infinity;
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); fn(); ms = Math.min(ms, performance.now() - t0); }
  return ms;
}

export default async function bench(): Promise<void> {
  const p = 64, m = 1024;
  const rows: Record<string, string | number>[] = [];
  for (const [name, v] of [["gpipe", 1], ["1f1b", 1], ["interleaved", 2], ["zb-h1", 1]] as [ScheduleName, number][]) {
    const s = generateSchedule(name, { p, m, v }); // warm-up
    const genMs = best(() => generateSchedule(name, { p, m, v }));
    const opts = { maxInFlight: name === "gpipe" ? m : name === "interleaved" ? Infinity : p };
    const violations = checkSchedule(s, opts).length;
    const checkMs = best(() => checkSchedule(s, opts));
    const n = s.events.length;
    rows.push({ schedule: name, p, m, v, events: n, "generate ms": +genMs.toFixed(0), "generate Mevents/s": +(n / genMs / 1e3).toFixed(2), "validate ms": +checkMs.toFixed(0), "validate Mevents/s": +(n / checkMs / 1e3).toFixed(2), violations });
  }
  console.table(rows);
}
