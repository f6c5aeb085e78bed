import type { updateBf16 } from "../update-bf16.js";

type F = typeof updateBf16;
type Mutant = { impl: F; caughtBy: string | string[] };

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
/** bf16 rounding written for the mutants: ties to even on the float32 bits (or up). */
function bf16(x: number, tiesUp = false): number {
  if (Number.isNaN(x)) return NaN;
  f32[0] = x;
  const b = u32[0]!;
  if (!Number.isFinite(f32[0]!)) return f32[0]!;
  u32[0] = ((b + (tiesUp ? 0x8000 : 0x7fff + ((b >>> 16) & 1))) >>> 16) << 16;
  return f32[0]!;
}

interface Options { noCarry?: boolean; dropOldCarry?: boolean; fp32Carry?: boolean; tiesUp?: boolean; nanCarry?: boolean; inPlace?: boolean; float32Sum?: boolean; stochastic?: boolean; noCheck?: boolean; spread?: boolean }

const make = (o: Options = {}): F => {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return (weights, update, carry) => {
    if (!o.noCheck) {
      if (update.length !== weights.length) throw new RangeError(`update has ${update.length} values but weights has ${weights.length}`);
      if (carry.length !== weights.length) throw new RangeError(`carry has ${carry.length} values but weights has ${weights.length}`);
    }
    const n = weights.length;
    const w = o.inPlace ? weights : new Float32Array(n), c = new Float32Array(n);
    const vw: number[] = [], vc: number[] = [];
    for (let i = 0; i < n; i++) {
      const old = weights[i]!;
      let y = o.dropOldCarry || o.noCarry ? update[i]! : update[i]! + carry[i]!;
      if (o.float32Sum) y = Math.fround(y);
      let next: number;
      if (o.stochastic) {
        const lo = bf16(old + y), step = Math.abs(bf16(lo * (1 + 2 ** -7)) - lo) || 2 ** -133;
        const below = lo <= old + y ? lo : bf16(lo - step), above = below === lo ? bf16(lo + step) : lo;
        next = rand() < (old + y - below) / (above - below || 1) ? above : below;
      } else next = bf16(old + y, o.tiesUp);
      const rest = o.noCarry ? 0 : o.float32Sum ? Math.fround(y - Math.fround(next - old)) : y - (next - old);
      const carried = o.stochastic ? 0 : !Number.isFinite(next) && !o.nanCarry ? 0 : o.fp32Carry ? Math.fround(rest) : bf16(rest);
      if (o.spread) { vw.push(next); vc.push(carried); } else { w[i] = next; c[i] = carried; }
    }
    if (o.spread) return { weights: Float32Array.of(...vw), carry: Float32Array.of(...vc) };
    return { weights: w, carry: c };
  };
};

export const mutants: Record<string, Mutant> = {
  "rounding alone: the carry is always 0": {
    caughtBy: ["the stub's example", "updates below half a spacing still count, over many steps", "a tie: an update of exactly half a spacing", "training: the weights track the fp32-master run (≤ 0.5 %)", "training: the loss matches the fp32-master run's (last 10 steps within 0.002)"],
    impl: make({ noCarry: true }),
  },
  "the carry it is given is ignored (only this step's loss is carried)": { caughtBy: ["the carry you are given counts", "updates below half a spacing still count, over many steps", "training: the weights track the fp32-master run (≤ 0.5 %)"], impl: make({ dropOldCarry: true }) },
  "the carry kept in float32, not bf16 (32 more bits per weight)": { caughtBy: ["the stub's example", "new arrays, inputs unchanged, lengths checked"], impl: make({ fp32Carry: true }) },
  "ties round up": { caughtBy: "a tie: an update of exactly half a spacing", impl: make({ tiesUp: true }) },
  "the sums in float32 (Math.fround): small carries lost beside large updates": { caughtBy: "each call: the nearest weight, nothing lost beyond the carry's rounding", impl: make({ float32Sum: true }) },
  "an overflowed weight leaves a NaN carry": { caughtBy: "overflow and NaN: the weight takes it, the carry is 0", impl: make({ nanCarry: true }) },
  "updates the weights in place and returns them": { caughtBy: ["new arrays, inputs unchanged, lengths checked", "the carry you are given counts"], impl: make({ inPlace: true }) },
  "stochastic rounding instead of a carry": { caughtBy: ["each call: the nearest weight, nothing lost beyond the carry's rounding", "training: the weights track the fp32-master run (≤ 0.5 %)"], impl: make({ stochastic: true }) },
  "no check of the lengths": { caughtBy: "new arrays, inputs unchanged, lengths checked", impl: make({ noCheck: true }) },
  "the result built with Float32Array.of(...values)": { caughtBy: "a million weights (a loop, not a spread)", impl: make({ spread: true }) },
};
