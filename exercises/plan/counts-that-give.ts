import { notImplemented } from "../harness/index.js";

/** A published run: the model's shape, the measured throughput, and the utilisation it reports. */
export interface PublishedUtilisation {
  /** Ψ, the model's parameters (chapter 2's count: every table included). */
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
  /** Measured tokens per second, all GPUs together. */
  tokensPerSecond: number;
  numGpus: number;
  /** Dense 16-bit peak of one GPU, FLOP/s. */
  peakFlopsPerGpu: number;
  /** The utilisation as printed, a percentage: "42.57", "44". */
  reported: string;
}

/** The four counts, in the order you return them. */
export type FlopCount = "six-psi" | "palm-mfu" | "palm-hfu-full" | "megatron-eq3";

/**
 * Exercise 12.1 — whose FLOP count is that utilisation?
 *
 * A utilisation is FLOPs per token × tokens per second over the peak FLOP/s of all the GPUs
 * (as a percentage here). Papers and tools count the FLOPs per token differently; for one run the
 * figures lie points apart. Return the counts (in the order below) whose utilisation gives the
 * reported figure, or [] when none does:
 * - "six-psi": 6Ψ, chapter 2's count;
 * - "palm-mfu": PaLM's model-FLOP count, 6N + 12·L·H·Q·T (Chowdhery et al. 2022, App. B), N the
 *   parameters that take part in a matrix product (the chapter says which: not a learned position
 *   table, not an untied input embedding; a tied one is the output layer's product);
 * - "palm-hfu-full": the FLOPs the hardware does when every layer's forward is recomputed (PaLM's
 *   count with the forward done twice; the recomputed forward is part of HFU, not of MFU);
 * - "megatron-eq3": Narayanan et al. 2021's Eq. 3, 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) per
 *   iteration of B sequences of s tokens.
 * A count gives the figure when its percentage lies within half a unit of the figure's last printed
 * digit, or within 0.1 % of the figure (the noise of a figure printed to many digits), whichever is
 * wider, bounds included.
 *
 * Errors (RangeError): `reported must be a percentage as printed (digits, at most one point), got "42.5%"`;
 * `numGpus must be an integer > 0, got 0` (likewise vocabSize, hiddenSize, numLayers, numHeads, headDim,
 * seqLen); `params must be a finite number > 0, got NaN` (likewise tokensPerSecond, peakFlopsPerGpu);
 * `positionRows must be an integer >= 0, got -1`; `tiedEmbeddings must be true or false, got 1`.
 *
 * Read: the chapter's "Model FLOP utilisation" section; chapter 2 (Ψ) and chapter 3 (recomputation).
 *
 * @param run the model's shape, the throughput, the GPUs, the figure as printed
 * @returns the counts that give it, in the order six-psi, palm-mfu, palm-hfu-full, megatron-eq3
 * @example countsThatGive({ params: 64839761920, vocabSize: 50368, hiddenSize: 8192, numLayers: 80, numHeads: 64, headDim: 128,
 *   tiedEmbeddings: true, positionRows: 0, seqLen: 2048, tokensPerSecond: 66523, numGpus: 64, peakFlopsPerGpu: 989.5e12, reported: "42.57" })
 * // ["palm-mfu"]: MPT-70B on 64 H100 in llm-foundry's benchmark table (6Ψ gives 40.87, PaLM's count 42.56)
 */
export function countsThatGive(run: PublishedUtilisation): FlopCount[] {
  return notImplemented("12.1");
}
