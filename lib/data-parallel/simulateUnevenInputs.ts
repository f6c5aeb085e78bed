import { checkNumRanks } from "../collectives/index.js";

/**
 * One rank's action in one iteration.
 * @see the sources of {@link simulateUnevenInputs}: torch.distributed.algorithms.Join docs and the "Distributed Training with Uneven Inputs Using the Join Context Manager" tutorial; DistributedDataParallel.join docs
 */
export interface JoinEvent {
  rank: number;
  iteration: number;
  /** "train": forward, backward, all-reduce; "shadow": a joined rank's zero all-reduce; "wait": blocked forever. */
  kind: "train" | "shadow" | "wait";
  /** Same as iteration, for timelines (one unit per iteration). */
  t: number;
  tEnd: number;
}

/**
 * Result of {@link simulateUnevenInputs}.
 * @see the sources of {@link simulateUnevenInputs}: torch.distributed.algorithms.Join docs and the "Distributed Training with Uneven Inputs Using the Join Context Manager" tutorial; DistributedDataParallel.join docs
 */
export interface UnevenInputsResult {
  /** Iterations every rank completes. */
  completedIterations: number;
  /** Set when the run deadlocks (without Join). */
  hang?: { iteration: number; waitingRanks: number[]; exitedRanks: number[]; message: string };
  /** With Join: per iteration, the factor that the all-reduced sum is divided by and how many ranks contributed. */
  divisors: { iteration: number; contributingRanks: number; divisor: number }[];
}

/**
 * What happens when ranks get different numbers of batches. Every DDP
 * iteration ends in collective all-reduces that all P ranks must enter.
 * Without Join, once a rank runs out of data and leaves its loop, the others
 * block in their next all-reduce forever (a hang, or a timeout error). With
 * the `Join` context manager (`with Join([model]):`), a rank that has run out
 * "joins": it keeps entering the all-reduces with zero gradients (shadowing
 * them) until every rank has joined. With `divide_by_initial_world_size=True`
 * (default) the sum is still divided by P, so fewer real contributions shrink
 * the average; with False it is divided by the number of ranks that still train.
 *
 * @param batchesPerRank number of batches of each rank (integers ≥ 0)
 * @param options `join` (use Join), `divideByInitialWorldSize` (default true)
 * @returns `{result, events}`: what each rank did in each iteration
 * @throws RangeError `batchesPerRank must hold one count per rank (numRanks >= 1), got 0`; `batchesPerRank[1] must be an integer >= 0, got -2`
 * @example simulateUnevenInputs([3, 2], { join: false }).result.hang?.iteration // 2
 * @see torch.distributed.algorithms.Join docs and the "Distributed Training with Uneven Inputs Using the Join Context Manager" tutorial; DistributedDataParallel.join docs
 */
export function simulateUnevenInputs(batchesPerRank: readonly number[], options: { join: boolean; divideByInitialWorldSize?: boolean }): { result: UnevenInputsResult; events: JoinEvent[] } {
  if (!Array.isArray(batchesPerRank) || batchesPerRank.length === 0) throw new RangeError("batchesPerRank must hold one count per rank (numRanks >= 1), got 0");
  const P = checkNumRanks(batchesPerRank.length);
  batchesPerRank.forEach((b, r) => {
    if (!Number.isInteger(b) || b < 0) throw new RangeError(`batchesPerRank[${r}] must be an integer >= 0, got ${b}`);
  });
  const min = Math.min(...batchesPerRank), max = Math.max(...batchesPerRank);
  const events: JoinEvent[] = [];
  const divisors: UnevenInputsResult["divisors"] = [];
  const ev = (rank: number, iteration: number, kind: JoinEvent["kind"]) => events.push({ rank, iteration, kind, t: iteration, tEnd: iteration + 1 });
  if (!options.join) {
    for (let it = 0; it < min; it++) for (let r = 0; r < P; r++) ev(r, it, "train");
    if (min === max) return { result: { completedIterations: min, divisors }, events };
    const waitingRanks = batchesPerRank.map((b, r) => (b > min ? r : -1)).filter((r) => r >= 0);
    const exitedRanks = batchesPerRank.map((b, r) => (b === min ? r : -1)).filter((r) => r >= 0);
    for (const r of waitingRanks) ev(r, min, "wait");
    const message = `iteration ${min}: ranks ${waitingRanks.join(", ")} wait in an all-reduce that ranks ${exitedRanks.join(", ")} never enter (they ran out of data): the job hangs until the process group's timeout`;
    return { result: { completedIterations: min, hang: { iteration: min, waitingRanks, exitedRanks, message }, divisors }, events };
  }
  for (let it = 0; it < max; it++) {
    let contributing = 0;
    for (let r = 0; r < P; r++) {
      const trains = it < batchesPerRank[r];
      ev(r, it, trains ? "train" : "shadow");
      if (trains) contributing++;
    }
    divisors.push({ iteration: it, contributingRanks: contributing, divisor: options.divideByInitialWorldSize === false ? contributing : P });
  }
  return { result: { completedIterations: max, divisors }, events };
}
