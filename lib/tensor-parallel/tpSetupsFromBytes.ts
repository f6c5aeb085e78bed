/**
 * What a profiler's byte counts say about a tensor-parallel run: the bytes one
 * rank sends per layer and step, by pass and collective, with activation
 * recomputation; and, read backwards, the setups that send exactly those bytes.
 */
import { tpCommPerLayer } from "./cost.js";
import { validTensorParallelSizes } from "./config.js";

/** Bytes one rank sends in one pass, by collective. */
export interface CollectiveBytes { allReduce: number; allGather: number; reduceScatter: number }
/** Bytes one rank sends per layer and step, forward and backward. */
export interface TpBytes { forward: CollectiveBytes; backward: CollectiveBytes }
/** One layer of the run: N = s·b tokens, h, the FFN size, the attention's heads (a, G, d), bytes per activation element. */
export interface TpLayer { tokens: number; hiddenSize: number; ffnHiddenSize: number; numHeads: number; numKvHeads: number; headDim: number; bytesPerElement: number }
/** A setup: T, sequence parallelism, and whether the backward recomputes the whole layer ("full"; "none" sends what "selective" sends). */
export interface TpSetup { T: number; sequenceParallel: boolean; recompute: "none" | "full" }

const KEY = { "all-reduce": "allReduce", "all-gather": "allGather", "reduce-scatter": "reduceScatter" } as const;
const zero = (): CollectiveBytes => ({ allReduce: 0, allGather: 0, reduceScatter: 0 });

/**
 * The bytes one rank sends per layer and step, by pass and collective: {@link tpCommPerLayer}'s rows, and with
 * full recomputation the forward's collectives once more in the backward pass (Megatron's `CheckpointFunction.backward`
 * runs the layer's forward again, collectives included); selective recomputation re-runs only the attention core,
 * between the collectives, and sends what no recomputation sends.
 * @param layer the layer's sizes; setup T, sequenceParallel, recompute
 * @returns bytes per rank (ring collectives), zeros at T = 1
 * @throws {RangeError} as {@link tpCommPerLayer}
 * @example tpBytesByCollective({ tokens: 4, hiddenSize: 2, ffnHiddenSize: 8, numHeads: 2, numKvHeads: 2, headDim: 1, bytesPerElement: 4 }, { T: 2, sequenceParallel: false, recompute: "full" })
 *   // { forward: { allReduce: 64, allGather: 0, reduceScatter: 0 }, backward: { allReduce: 128, allGather: 0, reduceScatter: 0 } }
 * @see Megatron-LM megatron/core/tensor_parallel/random.py `CheckpointFunction.backward`; {@link tpCommPerLayer}'s sources
 */
export function tpBytesByCollective(layer: TpLayer, setup: TpSetup): TpBytes {
  const rows = tpCommPerLayer({
    tokens: layer.tokens, hiddenSize: layer.hiddenSize, T: setup.T, sequenceParallel: setup.sequenceParallel, bytesPerElement: layer.bytesPerElement,
    attention: { numHeads: layer.numHeads, numKvHeads: layer.numKvHeads, headDim: layer.headDim },
  });
  const out: TpBytes = { forward: zero(), backward: zero() };
  for (const r of rows) {
    out[r.pass][KEY[r.collective]] += r.bytesPerRank;
    if (setup.recompute === "full" && r.pass === "forward") out.backward[KEY[r.collective]] += r.bytesPerRank;
  }
  return out;
}

/**
 * Every setup (T in 1 … maxT that Megatron accepts for the layer, {@link validTensorParallelSizes}; the tokens divisible
 * by T with sequence parallelism; sequence parallelism only for T > 1) whose
 * bytes equal `measured` to a relative 1e-9, sorted by T, then without before with sequence parallelism, then
 * "none" before "full". At T = 1 nothing is sent, whatever the rest: that setup is {T: 1, false, "none"}.
 * @param measured the profiler's bytes per rank per layer and step
 * @param layer the layer's sizes
 * @param maxT the largest T to consider (default 64)
 * @returns the setups that send exactly these bytes
 * @throws {RangeError} `maxT must be an integer >= 1, got 0`; `measured.forward.allGather must be a finite number >= 0, got -1`
 * @example tpSetupsFromBytes({ forward: { allReduce: 64, allGather: 0, reduceScatter: 0 }, backward: { allReduce: 128, allGather: 0, reduceScatter: 0 } },
 *   { tokens: 4, hiddenSize: 2, ffnHiddenSize: 8, numHeads: 2, numKvHeads: 2, headDim: 1, bytesPerElement: 4 })
 *   // [{ T: 2, sequenceParallel: false, recompute: "full" }]
 * @see {@link tpBytesByCollective}; Megatron-LM megatron/core/transformer/transformer_config.py (which T a model allows, as the page's "Which T fit a model")
 */
export function tpSetupsFromBytes(measured: TpBytes, layer: TpLayer, maxT = 64): TpSetup[] {
  if (!Number.isInteger(maxT) || maxT < 1) throw new RangeError(`maxT must be an integer >= 1, got ${maxT}`);
  for (const pass of ["forward", "backward"] as const) for (const k of ["allReduce", "allGather", "reduceScatter"] as const) {
    const v = measured?.[pass]?.[k];
    if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) throw new RangeError(`measured.${pass}.${k} must be a finite number >= 0, got ${v}`);
  }
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  const out: TpSetup[] = [];
  const valid = validTensorParallelSizes({ numHeads: layer.numHeads, numKvHeads: layer.numKvHeads, hiddenSize: layer.hiddenSize, ffnHiddenSize: layer.ffnHiddenSize, headDim: layer.headDim }, Math.max(maxT, layer.numHeads));
  for (const T of valid.filter((t) => t <= maxT)) {
    for (const sequenceParallel of T === 1 ? [false] : [false, true]) {
      if (sequenceParallel && layer.tokens % T !== 0) continue;
      for (const recompute of T === 1 ? (["none"] as const) : (["none", "full"] as const)) {
        const b = tpBytesByCollective(layer, { T, sequenceParallel, recompute });
        const ok = (["forward", "backward"] as const).every((p) => (["allReduce", "allGather", "reduceScatter"] as const).every((k) => same(b[p][k], measured[p][k])));
        if (ok) out.push({ T, sequenceParallel, recompute });
      }
    }
  }
  return out;
}
