import type { Mutant } from "../../harness/index.js";
import type { zbVOrders, VPass } from "../zb-v-order.js";
import { zbVOrder, interleavedSchedule, checkShape } from "../../../lib/pipeline-parallel/index.js";

type F = typeof zbVOrders;
/** The course's order of each device, edited by `edit`. */
const edited = (edit: (order: VPass[], p: number, r: number, m: number) => VPass[]): F => (p, m) => {
  checkShape(p, m);
  return Array.from({ length: p }, (_, r) => edit(zbVOrder(p, r, m) as VPass[], p, r, m));
};

export const mutants: Record<string, Mutant<F>> = {
  "GPipe on the V: every forward of both chunks, then every backward": {
    impl: (p, m) => {
      checkShape(p, m);
      return Array.from({ length: p }, () => {
        const o: VPass[] = [];
        for (const c of [0, 1] as const) for (let j = 0; j < m; j++) o.push({ kind: "F", microBatch: j, chunk: c });
        for (const c of [1, 0] as const) for (let j = 0; j < m; j++) o.push({ kind: "B", microBatch: j, chunk: c }, { kind: "W", microBatch: j, chunk: c });
        return o;
      });
    },
    caughtBy: ["at most p micro-batches in flight on every device (1F1B's peak)", "zero bubble when m ≥ 2p − 1"],
  },
  "one more forward of chunk 0 in the warm-up": {
    impl: edited((o, p, r) => {
      const f0 = o.map((x, i) => [x, i] as const).filter(([x]) => x.kind === "F" && x.chunk === 0);
      if (f0.length <= 2 * (p - r) - 1) return o;
      const [x, i] = f0[2 * (p - r) - 1];
      const rest = o.filter((_, k) => k !== i);
      rest.splice(2 * (p - r) - 1, 0, x);
      return rest;
    }),
    caughtBy: ["at most p micro-batches in flight on every device (1F1B's peak)", "zero bubble when m ≥ 2p − 1"],
  },
  "every W right after its B (none left to fill the end)": {
    impl: edited((o) => o.filter((x) => x.kind !== "W").flatMap((x) => (x.kind === "B" ? [x, { ...x, kind: "W" as const }] : [x]))),
    caughtBy: "zero bubble when m ≥ 2p − 1",
  },
  "keeps the passes of micro-batches that do not exist when m < 2p − 1": {
    impl: (p, m) => { checkShape(p, m); return Array.from({ length: p }, (_, r) => zbVOrder(p, r, Math.max(m, 2 * p - 1)) as VPass[]); },
    caughtBy: ["passes the course's validity checker", "few micro-batches (m < 2p − 1): no more idle than the course's ZB-V"],
  },
  "chunk 1 taken as Megatron's interleaved chunk (devices 0 → p − 1 again)": {
    impl: (p, m) => {
      checkShape(p, m);
      const mm = Math.ceil(m / p) * p, s = interleavedSchedule(p, mm, 2, { forward: 1, backward: 1 });
      return Array.from({ length: p }, (_, r) => s.events.filter((e) => e.stage === r && e.microBatch < m).sort((a, b) => a.start - b.start)
        .flatMap((e) => (e.kind === "B" ? [{ kind: "B", microBatch: e.microBatch, chunk: e.chunk }, { kind: "W", microBatch: e.microBatch, chunk: e.chunk }] : [{ kind: "F", microBatch: e.microBatch, chunk: e.chunk }]) as VPass[]));
    },
    caughtBy: "passes the course's validity checker",
  },
  "no check of p and m": {
    impl: (p, m) => (Number.isInteger(p) && p >= 1 && Number.isInteger(m) && m >= 1 ? Array.from({ length: p }, (_, r) => zbVOrder(p, r, m) as VPass[]) : []),
    caughtBy: "bad input names the field",
  },
};
