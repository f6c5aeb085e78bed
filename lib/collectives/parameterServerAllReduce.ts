import { World } from "./World.js";
import { validateCostModel } from "./costModel.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { checkRoot } from "./binomialTree.js";

/**
 * Options of {@link parameterServerAllReduce}.
 * @see the sources of {@link parameterServerAllReduce}: Li et al. 2014, "Scaling Distributed Machine Learning with the Parameter Server", OSDI (push/pull, Sec. 3); a single server is the unsharded case
 */
export interface ParameterServerOptions extends CollectiveOptions {
  /** The rank that plays the server (default 0); its link has `cost.serverBandwidthBytesPerS`. */
  serverRank?: number;
}

/**
 * All-reduce through one parameter server: every worker pushes its whole
 * buffer to the server, which adds them into its own (step 1, "push"); the
 * server then sends the sum back to every worker (step 2, "pull").
 *
 * Cost: 2 steps; each worker sends n elements, the server sends (P−1)·n;
 * the server's link carries (P−1)·n elements each way, so the time
 * 2(α + (P−1)·n·bytesPerElement/B_server) grows linearly with P: the bottleneck.
 *
 * @param buffers P buffers of n elements (not modified)
 * @param options cost model (with `serverBandwidthBytesPerS`), bytes per element, reduction, `serverRank`
 * @returns result[r] = Σ buffers on every rank
 * @throws RangeError `serverRank must be an integer in [0, 2], got 3`; and those of ringAllReduce
 * @example parameterServerAllReduce([[1], [2], [3]]).result // three Float32Array [6]
 * @see Li et al. 2014, "Scaling Distributed Machine Learning with the Parameter Server", OSDI (push/pull, Sec. 3); a single server is the unsharded case
 */
export function parameterServerAllReduce(buffers: readonly ArrayLike<number>[], options: ParameterServerOptions = {}): CollectiveResult {
  const cost = validateCostModel(costOf(options));
  const P = Array.isArray(buffers) ? buffers.length : 0;
  const server = P === 0 ? 0 : checkRoot(options.serverRank ?? 0, P, "serverRank");
  const world = new World(buffers, cost, { ...options, bandwidthOverrides: new Map([[server, cost.serverBandwidthBytesPerS]]) });
  const n = world.numElements;
  const workers = world.buffers.map((_, r) => r).filter((r) => r !== server);
  world.step("push", workers.map((w) => ({ sender: w, receiver: server, chunk: -1, offset: 0, length: n, op: "reduce" as const })));
  world.step("pull", workers.map((w) => ({ sender: server, receiver: w, chunk: -1, offset: 0, length: n, op: "copy" as const })));
  return resultOf(world, world.buffers.map((b) => b.slice()));
}
