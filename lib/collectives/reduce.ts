import { World } from "./World.js";
import { costOf, resultOf, type CollectiveOptions, type CollectiveResult } from "./collectiveResult.js";
import { binomialTreeSteps, checkRoot } from "./binomialTree.js";
import type { RootedOptions } from "./broadcast.js";

/**
 * Reduce along a binomial tree: the root ends with the elementwise sum of all
 * ranks' buffers (the broadcast tree run backwards: children send partial sums
 * to parents). ⌈log2 P⌉ steps, each moving the whole buffer.
 * As in MPI, only the root's output is defined; here every other rank's
 * result is its own input, unchanged (its send buffer).
 *
 * @param buffers P buffers of n elements (not modified)
 * @param options cost model, bytes per element, reduction, `root` (default 0)
 * @returns result[root] = Σ_r buffers[r]; result[r] = buffers[r] for r ≠ root
 * @throws RangeError `root must be an integer in [0, 1], got 2`; and those of ringAllReduce
 * @example reduce([[1, 2], [10, 20]]).result[0] // Float32Array [11, 22]
 * @see torch.distributed.reduce; Thakur, Rabenseifner & Gropp 2005, Sec. 4
 */
export function reduce(buffers: readonly ArrayLike<number>[], options: RootedOptions = {}): CollectiveResult {
  const world = new World(buffers, costOf(options), options);
  const inputs = world.buffers.map((b) => b.slice());
  const root = checkRoot(options.root ?? 0, world.numRanks, "root");
  const n = world.numElements;
  for (const pairs of binomialTreeSteps(world.numRanks, root).reverse()) {
    world.step("reduce", pairs.map(([parent, child]) => ({ sender: child, receiver: parent, chunk: -1, offset: 0, length: n, op: "reduce" as const })));
  }
  return resultOf(world, inputs.map((b, r) => (r === root ? world.buffers[root].slice() : b)));
}
