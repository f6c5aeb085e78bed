import { collectiveCost, type CostModel } from "../collectives/index.js";
import type { LayerTime } from "../perf/index.js";
import { checkT } from "./comm.js";

/**
 * What can hide a layer's tensor-parallel collectives.
 * @see {@link tpCollectiveTime}
 */
export interface TpOverlap {
  /** Backward: the input-gradient all-reduce (SP: reduce-scatter) of a column-parallel layer runs during its weight-gradient GEMM, and SP's re-gather of the input during its input-gradient GEMM (Megatron since 2021-08). */
  tpBackwardOverlap: boolean;
  /** `--tp-comm-overlap` (Transformer Engine userbuffers): the forward collectives, and SP's gather of the output gradient, split against the GEMM next to them. */
  tpCommOverlap: boolean;
}

/**
 * Time of one transformer layer's tensor-parallel collectives for one micro-batch, split into
 * what stays on the critical path and what hides behind a GEMM, each an (n, h) tensor of
 * n = b·s tokens timed on the group's link (lib/collectives' α-β model):
 * - forward, per attention and MLP block: an all-reduce after the row-parallel GEMM, or with
 *   sequence parallelism an all-gather before the column-parallel GEMM and a reduce-scatter after
 *   the row-parallel one; hidden only with `tpCommOverlap`, behind the GEMM next to it;
 * - full recomputation runs the forward collectives again;
 * - backward, per block: the column-parallel layer's input-gradient all-reduce (SP: reduce-scatter)
 *   behind its weight-gradient GEMM with `tpBackwardOverlap`; with SP also the input re-gathered for
 *   the weight gradient, behind the input-gradient GEMM, and the output gradient gathered before the
 *   row-parallel backward, hidden only with `tpCommOverlap`;
 * - when T exceeds the KV heads (`qkvElements` > 0), Megatron all-gathers the whole QKV activation after
 *   the QKV product and reduce-scatters its gradient before that product's backward, both between
 *   dependent operations: exposed (forward again under full recomputation);
 * - in an MoE layer (`moeTokenCopies` = k > 0; sequence parallelism on, as Megatron requires) the MLP block's
 *   collectives are the token dispatcher's: after the expert-parallel all-to-all it all-gathers the k·n token
 *   copies over the expert tensor-parallel group (T ranks) and reduce-scatters them before the combine, and
 *   the reverse in backward, between dependent operations: exposed.
 * Hidden = min(collective, GEMM); exposed = the rest.
 * @param linears the layer's GEMM times per linear (lib/perf's `transformerLayerTime(...).linears`)
 * @param o tokens n, hidden size h, T, sequence parallelism, full recomputation, the link, element bytes, `qkvElements` (n·(a + 2G)·d when T > G, else 0),
 *   `moeTokenCopies` (k for an MoE layer, default 0: a dense MLP), and the {@link TpOverlap} switches
 * @returns `{exposedS, hiddenS}`, both 0 when T = 1
 * @throws RangeError `T must be an integer >= 1, got 0`, and those of collectiveCost
 * @example tpCollectiveTime(layer.linears, { tokens: 4096, hiddenSize: 8192, T: 8, sequenceParallel: false, fullRecompute: false, link, bytesPerElement: 2, tpBackwardOverlap: false, tpCommOverlap: false }).exposedS
 *   // 4 ring all-reduces of 4096·8192 bf16 elements: 4 · 2·7·(α + 8.4 MB/B)
 * @see Megatron-LM d98e8a6 `core/tensor_parallel/layers.py` L637–720 (`LinearWithGradAccumulationAndAsyncCommunication.backward`), `core/transformer/attention.py`
 *   (the QKV all-gather when num_query_groups < T, since f7dfb99), `core/transformer/moe/token_dispatcher.py` (`MoEAlltoAllTokenDispatcher`:
 *   "A2A(EP) → AG(TP)", "RS(TP) → A2A(EP)"); Shoeybi et al. 2019, §3; Korthikanti et al. 2022, §4.2.2
 */
export function tpCollectiveTime(
  linears: LayerTime["linears"],
  o: { tokens: number; hiddenSize: number; T: number; sequenceParallel: boolean; fullRecompute: boolean; link: CostModel; bytesPerElement: number; qkvElements?: number; moeTokenCopies?: number } & TpOverlap,
): { exposedS: number; hiddenS: number } {
  const T = checkT(o.T);
  if (T === 1) return { exposedS: 0, hiddenS: 0 };
  const c = (kind: "ring-all-reduce" | "all-gather" | "reduce-scatter", n = o.tokens * o.hiddenSize) => collectiveCost(kind, n, T, o.link, o.bytesPerElement).timeS;
  const qkv = o.qkvElements ?? 0;
  let exposedS = 0, hiddenS = 0;
  const hide = (commS: number, behindS: number) => {
    const h = Math.min(commS, behindS);
    hiddenS += h;
    exposedS += commS - h;
  };
  const { qkv: qkvLinear, proj, fc1, fc2 } = linears;
  const k = o.moeTokenCopies ?? 0; // an MoE layer: the MLP block's collectives are the dispatcher's
  const moe = (first: "all-gather" | "reduce-scatter") => {
    hide(c(first, k * o.tokens * o.hiddenSize), 0);
    hide(c(first === "all-gather" ? "reduce-scatter" : "all-gather", k * o.tokens * o.hiddenSize), 0);
  };
  const forward = (): void => {
    if (qkv > 0) hide(c("all-gather", qkv), 0);
    if (!o.sequenceParallel) for (const row of k ? [proj] : [proj, fc2]) hide(c("ring-all-reduce"), o.tpCommOverlap ? row.forwardS : 0);
    else {
      for (const col of k ? [qkvLinear] : [qkvLinear, fc1]) hide(c("all-gather"), o.tpCommOverlap ? col.forwardS : 0);
      for (const row of k ? [proj] : [proj, fc2]) hide(c("reduce-scatter"), o.tpCommOverlap ? row.forwardS : 0);
    }
    if (k) moe("all-gather");
  };
  forward();
  if (o.fullRecompute) forward();
  if (qkv > 0) hide(c("reduce-scatter", qkv), 0);
  if (k) moe("reduce-scatter");
  for (const [col, row] of k ? [[qkvLinear, proj]] : [[qkvLinear, proj], [fc1, fc2]]) {
    if (!o.sequenceParallel) hide(c("ring-all-reduce"), o.tpBackwardOverlap ? col.weightGradS : 0);
    else {
      hide(c("all-gather"), o.tpCommOverlap ? row.inputGradS : 0);
      hide(c("all-gather"), o.tpBackwardOverlap ? col.inputGradS : 0);
      hide(c("reduce-scatter"), o.tpBackwardOverlap ? col.weightGradS : 0);
    }
  }
  return { exposedS, hiddenS };
}
