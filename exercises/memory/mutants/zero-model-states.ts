import type { zeroModelStateBytes } from "../zero-model-states.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof zeroModelStateBytes;
const check = (p: number, n: number, s: number) => {
  if (!Number.isSafeInteger(p) || p < 0) throw new RangeError(`params must be an integer >= 0, got ${p}`);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`numGpus must be an integer >= 1, got ${n}`);
  if (![0, 1, 2, 3].includes(s)) throw new RangeError(`zeroStage must be 0, 1, 2 or 3, got ${s}`);
};
// Padded by elements, as the contract says: ⌈Ψ/N⌉ elements × bytes per element.
const split = (bytesPer: number, p: number, n: number, on: boolean) => bytesPer * (on ? Math.ceil(p / n) : p);
const states = (p: number, n: number, s: number, k = 12) => ({ parameters: split(2, p, n, s >= 3), gradients: split(2, p, n, s >= 2), optimizerStates: split(k, p, n, s >= 1) });

export const mutants: Record<string, Mutant<F>> = {
  "forgets the fp32 master copy (K = 8)": { impl: (p, n, s) => (check(p, n, s), states(p, n, s, 8)), caughtBy: ["ZeRO Figure 1 (Ψ = 7.5B, N = 64)", "one GPU: every stage holds 16Ψ"] },
  "stage 2 partitions the parameters instead of the gradients": {
    impl: (p, n, s) => (check(p, n, s), { parameters: split(2, p, n, s >= 2), gradients: split(2, p, n, s >= 3), optimizerStates: split(12, p, n, s >= 1) }),
    caughtBy: "which states each stage partitions (Llama-2-13B on 8 GPUs)",
  },
  "stage 1 already partitions the gradients": {
    impl: (p, n, s) => (check(p, n, s), { parameters: split(2, p, n, s >= 3), gradients: split(2, p, n, s >= 1), optimizerStates: split(12, p, n, s >= 1) }),
    caughtBy: "which states each stage partitions (Llama-2-13B on 8 GPUs)",
  },
  "pads bytes, not elements (⌈bytes/N⌉)": {
    impl: (p, n, s) => { check(p, n, s); const b = (x: number, on: boolean) => (on ? Math.ceil((x * p) / n) : x * p); return { parameters: b(2, s >= 3), gradients: b(2, s >= 2), optimizerStates: b(12, s >= 1) }; },
    caughtBy: "partitions are whole elements, padded",
  },
  "rounds partitions to the nearest byte instead of up": {
    impl: (p, n, s) => { check(p, n, s); const b = (x: number, on: boolean) => (on ? Math.round((x * p) / n) : x * p); return { parameters: b(2, s >= 3), gradients: b(2, s >= 2), optimizerStates: b(12, s >= 1) }; },
    caughtBy: "partitions are whole elements, padded",
  },
  "returns fractional bytes (no padding)": {
    impl: (p, n, s) => { check(p, n, s); const b = (x: number, on: boolean) => (on ? (x * p) / n : x * p); return { parameters: b(2, s >= 3), gradients: b(2, s >= 2), optimizerStates: b(12, s >= 1) }; },
    caughtBy: "partitions are whole elements, padded",
  },
  "accepts bad input (no validation)": { impl: (p, n, s) => states(p, n, s), caughtBy: "bad input: RangeError naming the argument" },
  "throws a plain Error instead of a RangeError": {
    impl: (p, n, s) => { try { check(p, n, s); } catch (e) { throw new Error((e as Error).message); } return states(p, n, s); },
    caughtBy: "bad input: RangeError naming the argument",
  },
};
