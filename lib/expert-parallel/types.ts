/**
 * The data types of lib/expert-parallel: what its functions and the chapter's exercises take and return
 * (fine to read before the exercises; the functions are the references).
 */
import type { CostModel, Topology } from "../collectives/index.js";
import type { DropPolicy, Expert, MoeRouterOptions, Param } from "../nn/index.js";

/**
 * One rank's routing: for each of its N_r tokens, k expert ids and k gates (row-major, (N_r, k)).
 * @see lib/expert-parallel planDispatch.ts (Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface RankRouting {
  experts: ArrayLike<number>;
  gates: ArrayLike<number>;
}

/**
 * How the dispatch is planned.
 * @see lib/expert-parallel planDispatch.ts (Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface DispatchOptions {
  /** E, experts (divisible by epSize). */
  numExperts: number;
  /** k, experts per token. */
  topK: number;
  /** P, expert-parallel ranks. */
  epSize: number;
  /** CF, or null for dropless; each rank computes its capacity from its own N_r. */
  capacityFactor: number | null;
  dropPolicy: DropPolicy;
  /** h, elements per token. */
  hiddenSize: number;
}

/**
 * One message of the dispatch all-to-all, in elements of the flat send and receive buffers.
 * @see lib/expert-parallel planDispatch.ts (Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface DispatchMessage {
  sender: number;
  receiver: number;
  /** Where the message starts in the sender's send buffer (elements). */
  offset: number;
  /** Elements: tokens · h. */
  length: number;
  /** Where it lands in the receiver's receive buffer (elements). */
  receiverOffset: number;
}

/**
 * The plan of one dispatch: what each rank keeps, sends, and receives.
 * @see lib/expert-parallel planDispatch.ts (Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface DispatchPlan {
  /** Per rank, (N_r·k): 1 where the (token, slot) pair fits its expert's capacity. */
  kept: Uint8Array[];
  /** Per rank, the kept slots t·k + j in send order: by expert, then by token. */
  sendOrder: number[][];
  /** splits[r][d]: tokens rank r sends to rank d (its own included). */
  splits: number[][];
  /** received[d][s][i]: tokens rank d receives from rank s for its local expert i (the receive buffer's chunks, source-major). */
  received: number[][][];
  /** The dispatch's messages between different ranks, sender-major then receiver (a rank's own segment is copied, not sent). */
  messages: DispatchMessage[];
}

/**
 * An expert-parallel group as the layer sees it: P ranks and an all-to-all.
 * @see lib/expert-parallel expertParallelMoe.ts (GShard §3; Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface EpGroup {
  P: number;
  /** Rank r sends splits[r][d] elements to rank d (segments in receiver order); each rank gets its segments in sender order. */
  allToAll(inputs: Float32Array[], splits: number[][], label?: string): Float32Array[];
}

/**
 * What rank r holds of an MoE block: a replica of the router and its E/P experts (global ids r·E/P + i).
 * Gradients are ADDED into their `grad`s.
 * @see lib/expert-parallel expertParallelMoe.ts (GShard §3; Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface EpRank {
  /** (h, E), the same values on every rank. */
  router: Param;
  /** Its E/P local experts. */
  experts: Expert[];
  /** (E) DeepSeek-V3's selection bias for "sigmoid" routing (optional). */
  expertBias?: Float32Array;
}

/**
 * Options of the expert-parallel block: the routing and h.
 * @see lib/expert-parallel expertParallelMoe.ts (GShard §3; Megatron-LM token_dispatcher.py at d98e8a6)
 */
export interface EpMoeOptions extends MoeRouterOptions {
  /** h, the width of a token. */
  hiddenSize: number;
  /** Multiplies the auxiliary losses' gradients (default 1); each rank's share is auxLossScale/P. */
  auxLossScale?: number;
}

/**
 * The signature of an expert-parallel MoE block (what expertParallelMoe implements and exercise 14.4 asks for).
 * @see lib/expert-parallel expertParallelMoe.ts (GShard §3; Megatron-LM token_dispatcher.py at d98e8a6)
 */
export type EpMoeStep = (group: EpGroup, ranks: EpRank[], xs: Float32Array[], dys: Float32Array[] | null, o: EpMoeOptions) => { ys: Float32Array[]; dxs: Float32Array[] | null };

/**
 * One message of an all-to-all as the World logged it (the fields the diagnosis reads).
 * @see lib/expert-parallel diagnoseDispatch.ts (lib/collectives allToAll)
 */
export interface LoggedMessage {
  sender: number;
  receiver: number;
  bytes: number;
  /** Start and end of the all-to-all's step, seconds. */
  t: number;
  tEnd: number;
}

/**
 * What the dispatch ran on.
 * @see lib/expert-parallel diagnoseDispatch.ts (lib/collectives allToAll)
 */
export interface DispatchSetup {
  /** P, ranks of the all-to-all. */
  numRanks: number;
  /** Tokens on every rank (the same N on each). */
  tokensPerRank: number;
  /** k. */
  topK: number;
  /** h, elements per token. */
  hiddenSize: number;
  bytesPerElement: number;
  cost: CostModel;
  topology?: Topology;
}

/**
 * The diagnosis of one dispatch.
 * @see lib/expert-parallel diagnoseDispatch.ts (lib/collectives allToAll)
 */
export interface DispatchDiagnosis {
  /** Tokens (token, expert pairs) each rank's experts received, its own included. */
  receivedPerRank: number[];
  /** The rank that received the most (lowest index on ties). */
  hotRank: number;
  /** The logged step time over the time of the same dispatch with perfectly balanced routing (1 when both are 0). */
  slowdown: number;
}
