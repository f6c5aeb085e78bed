/**
 * Which FLOP count did a published utilisation use? The same run gives 6Ψ's
 * MFU, PaLM's MFU, the hardware utilisation with full recomputation, or
 * Megatron-LM's Eq. 3 figure, several points apart; a figure is read
 * correctly only once its count is known.
 */

/** A published run: the model's shape, the measured throughput, and the utilisation it reports. */
export interface PublishedUtilisation {
  /** Ψ, the model's parameters (chapter 2's count, every table included). */
  params: number;
  vocabSize: number;
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  headDim: number;
  /** True when the input embedding is the output layer's matrix. */
  tiedEmbeddings: boolean;
  /** Rows of a learned position table (0 without one). */
  positionRows: number;
  /** T, tokens per sequence. */
  seqLen: number;
  /** Measured tokens per second, all GPUs. */
  tokensPerSecond: number;
  numGpus: number;
  /** Dense 16-bit peak of one GPU, FLOP/s. */
  peakFlopsPerGpu: number;
  /** The utilisation as printed, a percentage: "42.57", "44". */
  reported: string;
}

/** The counts, in the order {@link countsThatGive} returns them. */
export const FLOP_COUNTS = ["six-psi", "palm-mfu", "palm-hfu-full", "megatron-eq3"] as const;
export type FlopCount = (typeof FLOP_COUNTS)[number];

function finite(name: string, v: unknown, { int = false, min = 0, open = true } = {}): number {
  const ok = typeof v === "number" && Number.isFinite(v) && (int ? Number.isSafeInteger(v) : true) && (open ? v > min : v >= min);
  if (!ok) throw new RangeError(`${name} must be ${int ? "an integer" : "a finite number"} ${open ? ">" : ">="} ${min}, got ${String(v)}`);
  return v as number;
}

/**
 * FLOPs per token of each count for a run:
 * - `six-psi`: 6Ψ (chapter 2's, every parameter);
 * - `palm-mfu`: 6N + 12·L·H·Q·T, N the parameters that take part in a product: Ψ less a learned
 *   position table (rows·h) and less an untied input embedding (V·h) (Chowdhery et al. 2022, App. B);
 * - `palm-hfu-full`: 8N + 16·L·H·Q·T, the same with every layer's forward recomputed (the hardware's FLOPs);
 * - `megatron-eq3`: 96·L·h²·(1 + T/(6h) + V/(16·L·h)), Narayanan et al.'s Eq. 3 per token (recomputation
 *   included, a 4h MLP, the logits' three passes).
 * @param r the run (its shape and T)
 * @returns FLOPs per token by count
 * @example flopsPerTokenByCount(mpt70b)["palm-mfu"] // 6 · 64,839,761,920 + 12 · 80 · 64 · 128 · 2048 ≈ 4.051e11
 */
export function flopsPerTokenByCount(r: Omit<PublishedUtilisation, "tokensPerSecond" | "numGpus" | "peakFlopsPerGpu" | "reported">): Record<FlopCount, number> {
  const L = r.numLayers, H = r.numHeads, Q = r.headDim, T = r.seqLen, h = r.hiddenSize, V = r.vocabSize;
  const N = r.params - r.positionRows * h - (r.tiedEmbeddings ? 0 : V * h);
  const attention = L * H * Q * T;
  return {
    "six-psi": 6 * r.params,
    "palm-mfu": 6 * N + 12 * attention,
    "palm-hfu-full": 8 * N + 16 * attention,
    "megatron-eq3": 96 * L * h * h * (1 + T / (6 * h) + V / (16 * L * h)),
  };
}

/**
 * The counts whose utilisation, at the run's throughput over the peak of all its GPUs,
 * gives the reported figure: within half a unit of its last printed digit, or within
 * 0.1 % of it (the noise of a figure printed to many digits: a peak rounded, a throughput
 * averaged), whichever is wider, bounds included.
 * @param r the run and the figure as printed
 * @returns the counts that give it, in {@link FLOP_COUNTS}' order ([] when none does)
 * @throws RangeError naming the field: `reported must be a percentage as printed (digits, at most one point), got "42.5%"`,
 *   `numGpus must be an integer > 0, got 0`, `params must be a finite number > 0, got NaN`, `positionRows must be an integer >= 0, got -1`
 * @example countsThatGive(mpt70bOnLlmFoundry) // ["palm-mfu"]: 42.56 against the printed 42.57 (llm-foundry's benchmark table)
 * @see Chowdhery et al. 2022, *PaLM*, Appendix B; Narayanan et al. 2021, Eq. 3; Korthikanti et al. 2022, §6 (MFU and HFU)
 */
export function countsThatGive(r: PublishedUtilisation): FlopCount[] {
  for (const k of ["params", "tokensPerSecond", "peakFlopsPerGpu"] as const) finite(k, r[k]);
  for (const k of ["vocabSize", "hiddenSize", "numLayers", "numHeads", "headDim", "seqLen", "numGpus"] as const) finite(k, r[k], { int: true });
  finite("positionRows", r.positionRows, { int: true, open: false });
  if (typeof r.tiedEmbeddings !== "boolean") throw new RangeError(`tiedEmbeddings must be true or false, got ${String(r.tiedEmbeddings)}`);
  if (typeof r.reported !== "string" || !/^\d+(\.\d+)?$/.test(r.reported)) throw new RangeError(`reported must be a percentage as printed (digits, at most one point), got ${JSON.stringify(r.reported)}`);
  const printed = Number(r.reported);
  const decimals = r.reported.includes(".") ? r.reported.length - r.reported.indexOf(".") - 1 : 0;
  const slack = Math.max(0.5 * 10 ** -decimals, 0.001 * printed);
  const flops = flopsPerTokenByCount(r);
  return FLOP_COUNTS.filter((k) => Math.abs((100 * flops[k] * r.tokensPerSecond) / (r.numGpus * r.peakFlopsPerGpu) - printed) <= slack);
}
