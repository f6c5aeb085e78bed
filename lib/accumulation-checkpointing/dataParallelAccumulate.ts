/**
 * Gradient accumulation across data-parallel ranks: each rank accumulates its
 * own micro-batches, then gradients are summed over ranks (an all-reduce).
 */
import { flatGrad, type Batch, type Model, type Ops } from "../nn/index.js";
import { accumulateGradients } from "./accumulateGradients.js";

/**
 * How ranks normalise.
 * @see the sources of {@link dataParallelAccumulate}: Hugging Face transformers Trainer `average_tokens_across_devices` (2024); PyTorch DDP docs (gradients are averaged)
 */
export type DataParallelNormalization =
  /** Divide by the token count summed over every rank and micro-batch (an all-reduce of one integer), then SUM gradients. Correct. */
  | "global-tokens"
  /** Each rank divides by its own token count, then gradients are AVERAGED over ranks (DDP's default mean). Wrong when ranks hold different token counts. */
  | "local-tokens";

/**
 * What {@link dataParallelAccumulate} returns.
 * @see the sources of {@link dataParallelAccumulate}: Hugging Face transformers Trainer `average_tokens_across_devices` (2024); PyTorch DDP docs (gradients are averaged)
 */
export interface DataParallelResult {
  /** The gradient every rank holds after the all-reduce, all parameters flattened. */
  grad: Float64Array;
  /** Tokens per rank (summed over its micro-batches). */
  rankTokens: number[];
  /** Σ rankTokens. */
  globalTokens: number;
  /** Simulator events: per-rank accumulation and the all-reduces. */
  events: { t: number; rank: number; kind: "accumulate" | "all-reduce-tokens" | "all-reduce-grads"; bytes: number }[];
}

/**
 * Simulates R data-parallel ranks that each accumulate their micro-batches.
 * All replicas hold the same parameters, so the model is reused rank after rank.
 *
 * global-tokens: N = Σ_r Σ_i n_{r,i} (all-reduce of an integer), rank r backpropagates
 * lossSum_{r,i}/N, gradients are summed → exactly the one-big-batch gradient.
 * local-tokens: rank r uses its own N_r, gradients are averaged over R.
 *
 * @param model the model (its grads are left holding the all-reduced gradient)
 * @param perRank R >= 1 lists of micro-batches
 * @param normalization default "global-tokens"
 * @param ops precision and matmul
 * @returns the all-reduced gradient, token counts and events
 * @throws {RangeError} `perRank must hold at least one rank`
 * @example
 * dataParallelAccumulate(model, [[a1, a2], [b1, b2]]).grad; // = gradient of the mean loss over a1 ∪ a2 ∪ b1 ∪ b2
 * @see Hugging Face transformers Trainer `average_tokens_across_devices` (2024); PyTorch DDP docs (gradients are averaged)
 */
export function dataParallelAccumulate(model: Model, perRank: readonly (readonly Batch[])[], normalization: DataParallelNormalization = "global-tokens", ops?: Ops): DataParallelResult {
  if (perRank.length === 0) throw new RangeError("perRank must hold at least one rank");
  if (normalization !== "global-tokens" && normalization !== "local-tokens") throw new RangeError(`normalization must be "global-tokens" or "local-tokens", got "${normalization}"`);
  const R = perRank.length;
  const rankTokens = perRank.map((mbs) => mbs.reduce((s, b) => s + b.targets.reduce((c, t) => c + (t >= 0 ? 1 : 0), 0), 0));
  const globalTokens = rankTokens.reduce((a, b) => a + b, 0);
  const events: DataParallelResult["events"] = [];
  let t = 0;
  if (normalization === "global-tokens") for (let r = 0; r < R; r++) events.push({ t, rank: r, kind: "all-reduce-tokens", bytes: 8 });
  t++;
  let sum: Float64Array | null = null;
  perRank.forEach((mbs, r) => {
    accumulateGradients(model, mbs, { ops, normalizerTokens: normalization === "global-tokens" ? globalTokens : undefined });
    const g = flatGrad(model.params);
    events.push({ t, rank: r, kind: "accumulate", bytes: 0 });
    if (sum === null) sum = new Float64Array(g.length);
    for (let i = 0; i < g.length; i++) sum[i] += normalization === "global-tokens" ? g[i] : g[i] / R;
  });
  t++;
  const grad = sum as unknown as Float64Array;
  for (let r = 0; r < R; r++) events.push({ t, rank: r, kind: "all-reduce-grads", bytes: grad.length * 4 });
  let o = 0;
  for (const p of model.params) { for (let i = 0; i < p.grad.length; i++) p.grad[i] = grad[o + i]; o += p.grad.length; }
  return { grad, rankTokens, globalTokens, events };
}
