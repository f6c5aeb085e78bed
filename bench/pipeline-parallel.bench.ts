/**
 * Pipeline-parallel benchmarks: generating and validating schedules for p = 64 stages and
 * m = 1024 micro-batches (events per second). Prints figures; asserts nothing.
 */
import { generateSchedule, checkSchedule, type ScheduleName } from "../lib/pipeline-parallel/index.js";

export default async function bench(): Promise<void> {
  const p = 64, m = 1024;
  const rows: Record<string, string | number>[] = [];
  for (const [name, v] of [["gpipe", 1], ["1f1b", 1], ["interleaved", 2], ["zb-h1", 1]] as [ScheduleName, number][]) {
    let t0 = performance.now();
    const s = generateSchedule(name, { p, m, v });
    const genMs = performance.now() - t0;
    t0 = performance.now();
    const violations = checkSchedule(s, { maxInFlight: name === "gpipe" ? m : Infinity }).length;
    const checkMs = performance.now() - t0;
    const n = s.events.length;
    rows.push({ schedule: name, p, m, v, events: n, "generate ms": +genMs.toFixed(0), "generate Mevents/s": +(n / genMs / 1e3).toFixed(2), "validate ms": +checkMs.toFixed(0), "validate Mevents/s": +(n / checkMs / 1e3).toFixed(2), violations });
  }
  console.table(rows);
}
