import type { Mutant } from "../../harness/index.js";
import type { tpSetupsFromBytes, TpBytes, TpLayer, TpSetup } from "../tp-setups-from-bytes.js";

type F = typeof tpSetupsFromBytes;
interface Options { noRecomputeRepeat?: boolean; noRegather?: boolean; noQkv?: boolean; oldRule?: boolean; noCheck?: boolean }

/** The forward model, written for the mutants. */
function model(l: TpLayer, s: TpSetup, o: Options): TpBytes {
  const z = () => ({ allReduce: 0, allGather: 0, reduceScatter: 0 });
  const out = { forward: z(), backward: z() };
  const T = s.T;
  if (T === 1) return out;
  const n = l.tokens * l.hiddenSize * l.bytesPerElement, piece = ((T - 1) / T) * n;
  if (!s.sequenceParallel) { out.forward.allReduce = 2 * 2 * piece; out.backward.allReduce = 2 * 2 * piece; }
  else { out.forward.allGather = 2 * piece; out.forward.reduceScatter = 2 * piece; out.backward.allGather = (o.noRegather ? 2 : 4) * piece; out.backward.reduceScatter = 2 * piece; }
  if (!o.noQkv && l.numKvHeads < T) {
    const q = ((T - 1) / T) * l.tokens * (l.numHeads + 2 * l.numKvHeads) * l.headDim * l.bytesPerElement;
    out.forward.allGather += q; out.backward.reduceScatter += q;
  }
  if (s.recompute === "full" && !o.noRecomputeRepeat) for (const k of ["allReduce", "allGather", "reduceScatter"] as const) out.backward[k] += out.forward[k];
  return out;
}

const make = (o: Options = {}): F => (measured, l, maxT = 64) => {
  if (!o.noCheck) {
    if (!Number.isInteger(maxT) || maxT < 1) throw new RangeError(`maxT must be an integer >= 1, got ${maxT}`);
    for (const p of ["forward", "backward"] as const) for (const k of ["allReduce", "allGather", "reduceScatter"] as const) {
      const v = measured[p][k];
      if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) throw new RangeError(`measured.${p}.${k} must be a finite number >= 0, got ${v}`);
    }
  }
  const eq = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(a, b);
  const out: TpSetup[] = [];
  for (let T = 1; T <= maxT; T++) {
    const fits = o.oldRule ? l.numHeads % T === 0 && l.ffnHiddenSize % T === 0 && l.numKvHeads % T === 0 : l.numHeads % T === 0 && l.ffnHiddenSize % T === 0 && (l.numKvHeads % T === 0 || (T % l.numKvHeads === 0 && ((l.numHeads + 2 * l.numKvHeads) * l.headDim) % T === 0));
    if (!fits) continue;
    for (const sequenceParallel of T === 1 ? [false] : [false, true]) {
      if (sequenceParallel && l.tokens % T !== 0) continue;
      for (const recompute of T === 1 ? ["none" as const] : ["none" as const, "full" as const]) {
        const b = model(l, { T, sequenceParallel, recompute }, o);
        if ((["forward", "backward"] as const).every((p) => (["allReduce", "allGather", "reduceScatter"] as const).every((k) => eq(b[p][k], measured[p][k])))) out.push({ T, sequenceParallel, recompute });
      }
    }
  }
  return out;
};

export const mutants: Record<string, Mutant<F>> = {
  "full recomputation sends nothing more": { impl: make({ noRecomputeRepeat: true }), caughtBy: ["the stub's example", "full recomputation: the forward's collectives again in backward"] },
  "sequence parallelism without the backward re-gather": { impl: make({ noRegather: true }), caughtBy: "sequence parallelism: the re-gather in backward" },
  "no QKV all-gather above the KV heads": { impl: make({ noQkv: true }), caughtBy: "more ranks than KV heads: the QKV all-gather" },
  "Megatron's old rule: KV heads a multiple of T (T ≤ G)": { impl: make({ oldRule: true }), caughtBy: "more ranks than KV heads: the QKV all-gather" },
  "no check of the input": { impl: make({ noCheck: true }), caughtBy: "bad input: RangeError naming the field" },
};
