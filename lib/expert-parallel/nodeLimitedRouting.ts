import { gaussian, mulberry32, topKIndices } from "../nn/index.js";
import { expertOwner } from "./expertPlacement.js";

/**
 * Group-limited top-k (DeepSeek-V2's device-limited and DeepSeek-V3's node-limited routing): the E experts are split
 * into G equal groups (devices or nodes); each group is scored by the sum of its k/M highest scores; the M best groups
 * are kept and the k experts are the top-k of the scores within them. Ties go to the lower index, for groups and experts.
 *
 * @param scores (E) one token's routing scores (DeepSeek-V3: s_i + b_i)
 * @param topK k (divisible by groupTopK)
 * @param numGroups G (dividing E)
 * @param groupTopK M, groups a token may use (1 ≤ M ≤ G)
 * @returns the k experts, by decreasing score
 * @throws {RangeError} `numGroups (3) must divide the 8 experts`; `groupTopK must be an integer in [1, numGroups = 4], got 5`;
 *   `topK (6) must be a multiple of groupTopK (4)`; `topK must be an integer in [1, 8], got 9`
 * @example groupLimitedTopK([9, 8, 0, 0, 7, 7, 0, 0], 2, 4, 1) // [0, 1]: group 0 scores 9 + 8 = 17, group 2 scores 14
 * @see DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §2.1.2 "Node-Limited Routing" (M = 4 nodes, the sum of the highest K_r/M affinities per node);
 *   Megatron-LM `megatron/core/transformer/moe/moe_utils.py` at d98e8a6 (`group_limited_topk`; `--moe-router-num-groups`, `--moe-router-group-topk`)
 */
export function groupLimitedTopK(scores: ArrayLike<number>, topK: number, numGroups: number, groupTopK: number): number[] {
  const E = scores.length, G = numGroups, M = groupTopK, k = topK;
  if (!Number.isInteger(G) || G < 1 || E % G !== 0) throw new RangeError(`numGroups (${G}) must divide the ${E} experts`);
  if (!Number.isInteger(M) || M < 1 || M > G) throw new RangeError(`groupTopK must be an integer in [1, numGroups = ${G}], got ${M}`);
  if (!Number.isInteger(k) || k < 1 || k > E) throw new RangeError(`topK must be an integer in [1, ${E}], got ${k}`);
  if (k % M !== 0) throw new RangeError(`topK (${k}) must be a multiple of groupTopK (${M})`);
  const size = E / G, per = k / M;
  const groupScore = Array.from({ length: G }, (_, g) => {
    const inGroup = Array.from({ length: size }, (_, i) => scores[g * size + i]);
    return topKIndices(inGroup, Math.min(per, size)).reduce((s, i) => s + inGroup[i], 0);
  });
  const keep = new Set(topKIndices(groupScore, M));
  const masked = Array.from({ length: E }, (_, e) => (keep.has(Math.floor(e / size)) ? scores[e] : -Infinity));
  return topKIndices(masked, k);
}

/**
 * How many copies of one token leave its rank, counted three ways.
 * @see the sources of {@link tokenCopies}
 */
export interface TokenCopies {
  /** (token, expert) pairs whose expert is on another rank: what a permute-then-all-to-all sends (Megatron's alltoall dispatcher). */
  pairs: number;
  /** Distinct other ranks: one copy per destination rank. */
  ranks: number;
  /** Distinct other nodes: one copy per node over the network, forwarded inside the node (DeepSeek-V3's IB-then-NVLink dispatch). */
  nodes: number;
}

/**
 * Counts the copies of a token routed to `experts` from rank `source`, with E experts over P ranks
 * (contiguous placement) and `ranksPerNode` ranks per node.
 * @param experts the token's k experts
 * @param source its rank
 * @param numExperts E
 * @param epSize P
 * @param ranksPerNode g (dividing P)
 * @returns pairs, ranks and nodes off the source
 * @throws {RangeError} `ranksPerNode (3) must divide epSize (8)`; those of expertOwner
 * @example tokenCopies([0, 1, 8, 12], 0, 16, 8, 4) // { pairs: 2, ranks: 2, nodes: 1 }: experts 0, 1 are on rank 0; 8 and 12 on ranks 4 and 6 of node 1
 * @see DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §3.2.2 (tokens cross IB once per node, then NVLink); Megatron-LM token_dispatcher.py at d98e8a6 (one row per (token, expert) pair)
 */
export function tokenCopies(experts: readonly number[], source: number, numExperts: number, epSize: number, ranksPerNode: number): TokenCopies {
  if (!Number.isInteger(ranksPerNode) || ranksPerNode < 1 || epSize % ranksPerNode !== 0) throw new RangeError(`ranksPerNode (${ranksPerNode}) must divide epSize (${epSize})`);
  const owners = experts.map((e) => expertOwner(e, numExperts, epSize)).filter((r) => r !== source);
  const node = (r: number) => Math.floor(r / ranksPerNode);
  return { pairs: owners.length, ranks: new Set(owners).size, nodes: new Set(owners.map(node).filter((n) => n !== node(source))).size };
}

/**
 * The mean {@link TokenCopies} of `tokens` tokens with standard-normal router scores, routed by
 * {@link groupLimitedTopK} with one group per node (token t sits on rank t mod P).
 * @param o experts E, ranks P, ranks per node g (dividing P), k, nodes allowed M, tokens, seed
 * @returns the mean pairs, ranks and nodes off a token's rank
 * @throws {RangeError} those of groupLimitedTopK and tokenCopies
 * @example meanTokenCopies({ numExperts: 256, epSize: 64, ranksPerNode: 8, topK: 8, groupTopK: 4, tokens: 400, seed: 11 }).nodes // ≤ 4
 * @see DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §2.1.2 and §3.2.2
 */
export function meanTokenCopies(o: { numExperts: number; epSize: number; ranksPerNode: number; topK: number; groupTopK: number; tokens: number; seed: number }): TokenCopies {
  const rng = mulberry32(o.seed), sum: TokenCopies = { pairs: 0, ranks: 0, nodes: 0 };
  for (let t = 0; t < o.tokens; t++) {
    const scores = Array.from({ length: o.numExperts }, () => gaussian(rng));
    const c = tokenCopies(groupLimitedTopK(scores, o.topK, o.epSize / o.ranksPerNode, o.groupTopK), t % o.epSize, o.numExperts, o.epSize, o.ranksPerNode);
    sum.pairs += c.pairs; sum.ranks += c.ranks; sum.nodes += c.nodes;
  }
  const n = Math.max(1, o.tokens);
  return { pairs: sum.pairs / n, ranks: sum.ranks / n, nodes: sum.nodes / n };
}
