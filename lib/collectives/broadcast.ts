import { World } from "./World.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { binomialTreeSteps, checkRoot } from "./binomialTree.js";

/**
 * Options of {@link broadcast} and {@link reduce}.
 * @see the sources of {@link broadcast}: torch.distributed.broadcast; Thakur, Rabenseifner & Gropp 2005, Sec. 4.1
 */
export interface RootedOptions extends CollectiveOptions {
  /** The root rank (default 0). */
  root?: number;
}

/**
 * Broadcast along a binomial tree: every rank ends with the root's buffer.
 * ⌈log2 P⌉ steps, each moving the whole buffer; time ⌈log2 P⌉(α + n·bytesPerElement/B).
 * (NCCL pipelines broadcast along a ring instead; the tree is the readable
 * latency-optimal classic.) DDP uses it once, to copy rank 0's parameters at
 * construction; DataParallel uses it every step to replicate the module.
 *
 * @param buffers P buffers of n elements (the non-root ones are overwritten in the result)
 * @param options cost model, bytes per element, `root` (default 0)
 * @returns result[r] equals buffers[root] on every rank
 * @throws RangeError `root must be an integer in [0, 3], got 4`; and those of ringAllReduce
 * @example broadcast([[1, 2], [0, 0], [0, 0]]).result // three copies of Float32Array [1, 2]
 * @see torch.distributed.broadcast; Thakur, Rabenseifner & Gropp 2005, Sec. 4.1
 */
export function broadcast(buffers: readonly ArrayLike<number>[], options: RootedOptions = {}): CollectiveResult {
  const world = new World(buffers, costOf(options), options);
  const root = checkRoot(options.root ?? 0, world.numRanks, "root");
  const n = world.numElements;
  for (const pairs of binomialTreeSteps(world.numRanks, root)) {
    world.step("broadcast", pairs.map(([parent, child]) => ({ sender: parent, receiver: child, chunk: -1, offset: 0, length: n, op: "copy" as const })));
  }
  return resultOf(world, world.buffers.map((b) => b.slice()));
}
