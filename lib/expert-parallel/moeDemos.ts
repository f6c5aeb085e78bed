import { parameterCount, train, type MoeLayer, type MoeStats, type Model, type ModelConfig } from "../nn/index.js";
import { activeParameters } from "./moeMemory.js";

/**
 * A model the page trains: a label and lib/nn's sizes (the rest from DEFAULT_MODEL).
 * @see the sources of {@link trainMoeDemo}
 */
export interface MoeDemo {
  label: string;
  model: Partial<Omit<ModelConfig, "vocabSize">>;
}

/**
 * The page's comparison at equal active width: a dense model whose blocks have 64 hidden units, and an MoE model
 * whose blocks have 8 experts of 32, top-2 (64 hidden units per token, plus the router), trained alike.
 * @example MOE_COMPARISON.map((d) => d.label) // ["dense, hidden 64", "MoE, 8 experts of 32, top-2"]
 * @see Fedus et al. 2021, *Switch Transformers* §3 (comparisons at equal FLOPs per token); lib/nn DEFAULT_MODEL
 */
export const MOE_COMPARISON: readonly MoeDemo[] = [
  { label: "dense, hidden 64", model: { hiddenDim: 64 } },
  { label: "MoE, 8 experts of 32, top-2", model: { hiddenDim: 32, moe: { numExperts: 8, topK: 2 } } },
];

/**
 * The page's load-balancing runs: 8 experts of 32, top-1, without and with each balancing method.
 * @example BALANCING_RUNS.length // 4
 * @see Fedus et al. 2021 §2.2 (α = 10⁻²); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §2.1.2 (auxiliary-loss-free balancing)
 */
export const BALANCING_RUNS: readonly MoeDemo[] = [
  { label: "softmax, no balancing", model: { hiddenDim: 32, moe: { numExperts: 8, topK: 1, order: "softmax-topk", auxLossCoeff: 0 } } },
  { label: "softmax, Switch loss α = 0.1", model: { hiddenDim: 32, moe: { numExperts: 8, topK: 1, order: "softmax-topk", auxLossCoeff: 0.1 } } },
  { label: "sigmoid, no balancing", model: { hiddenDim: 32, moe: { numExperts: 8, topK: 1, order: "sigmoid", auxLossCoeff: 0 } } },
  { label: "sigmoid, bias γ = 0.01 (no loss)", model: { hiddenDim: 32, moe: { numExperts: 8, topK: 1, order: "sigmoid", auxLossCoeff: 0, biasUpdateRate: 0.01 } } },
];

/**
 * A lib/nn model's parameters, and the ones a token uses (the routed experts it is not sent to left out).
 * @param m a model built by createModel
 * @returns total and active parameter counts (equal without MoE blocks)
 * @example modelParameters(createModel({ ...DEFAULT_MODEL, vocabSize: 60 })).active // its total: no experts
 * @see {@link activeParameters}
 */
export function modelParameters(m: Model): { total: number; active: number } {
  const total = parameterCount(m.params);
  const blocks = m.layers.filter((l) => l.kind === "moe") as MoeLayer[];
  if (blocks.length === 0) return { total, active: total };
  const expertParams = blocks.reduce((s, b) => s + parameterCount(b.experts.flatMap((e) => [e.W1, e.b1, e.W2, e.b2])), 0);
  return { total, active: activeParameters({ totalParams: total, expertParams, numExperts: blocks[0].options.numExperts, topK: blocks[0].options.topK }) };
}

/**
 * The load imbalance of one step: the busiest expert's tokens over the mean, max_i c_i / (Σ c / E) (1 when balanced, E when one expert takes all).
 * @param counts tokens per expert
 * @returns the ratio (1 when no token was routed)
 * @example loadImbalance([4, 2, 1, 1]) // 2
 * @see Lepikhin et al. 2020, *GShard* §2.2 (experts' load); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §4.5.2 (maximal violation, MaxVio)
 */
export function loadImbalance(counts: readonly number[]): number {
  const sum = counts.reduce((a, b) => a + b, 0);
  return sum === 0 ? 1 : Math.max(...counts) / (sum / counts.length);
}

/**
 * Trains one demo with lib/nn's train (AdamW, lr 1e-2, the sonnets).
 * @param d the demo
 * @param steps optimizer steps (integer ≥ 1)
 * @returns the loss per step, the first block's tokens per expert per step, and the parameter counts
 * @throws {RangeError} `steps must be an integer >= 1, got 0`
 * @example trainMoeDemo(MOE_COMPARISON[1], 10).losses.length // 10
 * @see lib/nn train
 */
export function trainMoeDemo(d: MoeDemo, steps: number): { losses: number[]; routed: number[][]; stats: MoeStats[][]; total: number; active: number } {
  const r = train({ steps, model: d.model });
  return { losses: r.losses, routed: r.moeStats.map((s) => s[0]?.routedPerExpert ?? []), stats: r.moeStats, ...modelParameters(r.model) };
}
