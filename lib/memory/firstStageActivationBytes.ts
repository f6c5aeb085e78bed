import { activationBytesPerLayer, type ActivationOptions } from "./activationBytes.js";

/**
 * Pipeline schedules whose first-stage activation memory {@link firstStageActivationBytes} knows.
 * @see Huang et al. 2019 (GPipe); Narayanan et al. 2021 §2.2.1 (1F1B) and §2.2.2 (interleaved)
 */
export type PipelineSchedule = "gpipe" | "1f1b" | "interleaved";

/**
 * Pipeline options of {@link firstStageActivationBytes}.
 * @see Korthikanti et al. 2022 §4.2.3
 */
export interface PipelineActivationOptions {
  /** L, transformer layers of the whole model. */
  numLayers: number;
  /** p, pipeline stages (default 1); p·v must divide L. */
  pipelineParallel?: number;
  /** m, micro-batches per step (gradient-accumulation steps; default: p, the fewest that fill a 1F1B pipeline). */
  microBatches?: number;
  /** The schedule (default "1f1b"). */
  schedule?: PipelineSchedule;
  /** v, model chunks per stage for "interleaved" (default 2; must be 1 otherwise). */
  virtualStages?: number;
}

function checkInt(name: string, v: number, min: number): void {
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${v}`);
}

function resolve(o: PipelineActivationOptions): { L: number; p: number; m: number; schedule: PipelineSchedule; v: number } {
  checkInt("numLayers", o.numLayers, 1);
  const p = o.pipelineParallel ?? 1;
  checkInt("pipelineParallel", p, 1);
  const m = o.microBatches ?? p;
  checkInt("microBatches", m, 1);
  const schedule = o.schedule ?? "1f1b";
  if (!["gpipe", "1f1b", "interleaved"].includes(schedule)) throw new RangeError(`schedule must be gpipe, 1f1b or interleaved, got ${JSON.stringify(schedule)}`);
  const v = o.virtualStages ?? (schedule === "interleaved" ? 2 : 1);
  checkInt("virtualStages", v, 1);
  if (schedule !== "interleaved" && v !== 1) throw new RangeError(`virtualStages (${v}) needs schedule "interleaved"; ${schedule} has one chunk per stage`);
  if (schedule === "interleaved" && m % p !== 0) throw new RangeError(`microBatches (${m}) must be a multiple of pipelineParallel (${p}) for the interleaved schedule (Megatron-LM's rule with its default micro-batch group size N = p)`);
  if (o.numLayers % (p * v) !== 0) {
    throw new RangeError(v === 1 ? `pipelineParallel (${p}) must divide numLayers (${o.numLayers})` : `pipelineParallel × virtualStages (${p * v}) must divide numLayers (${o.numLayers})`);
  }
  return { L: o.numLayers, p, m, schedule, v };
}

/**
 * Model chunks (of L/(p·v) layers each) whose activations the first pipeline
 * stage holds at its peak, for m micro-batches:
 * GPipe m (every forward before any backward); 1F1B min(m, p) (p − 1 warm-up
 * forwards, then one forward per backward); interleaved min(m·v, p·v + p − 1)
 * (Megatron-LM's warm-up of (p − 1)·2 + (v − 1)·p forwards, plus the one of the
 * first steady-state step). With v = 1 a chunk is a micro-batch through L/p layers.
 * These are the peaks that lib/pipeline-parallel's `peakInFlight` measures from
 * the generated events on stage 0 (× v: it counts micro-batch equivalents), and
 * the tests compare the two for random p, m, v.
 * @param o see {@link PipelineActivationOptions}
 * @returns chunks in flight on stage 0 (an integer)
 * @throws RangeError `microBatches (6) must be a multiple of pipelineParallel (4) for the interleaved schedule (Megatron-LM's rule with its default micro-batch group size N = p)`,
 *   `pipelineParallel (3) must divide numLayers (32)`, `schedule must be gpipe, 1f1b or interleaved, got "zb"`
 * @example inFlightChunks({ numLayers: 32, pipelineParallel: 4, microBatches: 16 }) // 4 (1F1B: p)
 * @example inFlightChunks({ numLayers: 32, pipelineParallel: 4, microBatches: 16, schedule: "interleaved", virtualStages: 2 }) // 11 = 4·2 + 3
 * @see Korthikanti et al. 2022 §4.2.3 (p micro-batches on the first stage; interleaving: L(1 + (p−1)/(p·v)) layers);
 *   Narayanan et al. 2021 §2.2; Megatron-LM megatron/core/pipeline_parallel/schedules.py (warm-up counts)
 */
export function inFlightChunks(o: PipelineActivationOptions): number {
  const { p, m, schedule, v } = resolve(o);
  if (schedule === "gpipe") return m;
  if (schedule === "1f1b") return Math.min(m, p);
  return Math.min(m * v, p * v + p - 1);
}

/**
 * Activation bytes the FIRST pipeline stage holds at its peak (the most
 * loaded stage), per GPU: `inFlightChunks` chunks of L/(p·v) layers, each
 * layer costing {@link activationBytesPerLayer} (Korthikanti et al. 2022,
 * Table 2, with t and sequence parallelism).
 *
 * Under 1F1B with m ≥ p this is p × L/p = L layers, whatever p
 * (Korthikanti Eq. 5: sbhL/t·(34 + 5as/h) with sequence parallelism); with
 * fewer micro-batches than stages, m × L/p. GPipe holds m × L/p; the
 * interleaved schedule L·(1 + (p − 1)/(p·v)) layers once m > p (Korthikanti
 * §4.2.3, where their m is our v). As in Table 2, embeddings, the final norm,
 * the output layer and the loss are not counted (their §4.3 terms, sbhp/t for
 * the embedding dropout and 4sbh/t·(1 + v/h) at p = 1, are under 0.01% for
 * their 22B model).
 * @param o per-layer options of {@link activationBytesPerLayer} plus {@link PipelineActivationOptions}
 * @returns bytes (an integer: L·chunks/(p·v) is whole because p·v divides L)
 * @throws RangeError those of {@link inFlightChunks} and {@link activationBytesPerLayer}
 * @example firstStageActivationBytes({ seqLen: 2048, microBatch: 1, hiddenSize: 12288, numHeads: 96, numLayers: 96,
 *   tensorParallel: 8, sequenceParallel: true, pipelineParallel: 8, microBatches: 64, schedule: "interleaved", virtualStages: 3 })
 *   // GPT-3 175B as in Korthikanti Table 3: Eq. 5 × (1 + 7/24) = 124 layers × 2048·12288·(34 + 80)/8 = 44,468,011,008 bytes
 * @see Korthikanti et al. 2022, *Reducing Activation Recomputation in Large Transformer Models*, §4.2.3 (Eq. 5), §5 (Eq. 6), Tables 2 and 3
 */
export function firstStageActivationBytes(o: ActivationOptions & PipelineActivationOptions): number {
  const { L, p, v } = resolve(o);
  const chunks = inFlightChunks(o);
  return activationBytesPerLayer(o) * (L / (p * v)) * chunks;
}
