/**
 * The steps of a binomial tree rooted at `root` over P ranks, as lists of
 * (parent, child) pairs: at step k (mask = 2^k) every relative rank v < mask
 * is linked to v + mask (when < P). ⌈log2 P⌉ steps; every non-root rank
 * appears once as a child.
 *
 * @param numRanks P (≥ 1)
 * @param root the tree's root rank, 0 ≤ root < P
 * @returns steps[k] = [[parent, child], …] in absolute ranks
 * @example binomialTreeSteps(4, 0) // [[[0, 1]], [[0, 2], [1, 3]]]
 * @see Thakur, Rabenseifner & Gropp 2005, "Optimization of collective communication operations in MPICH", IJHPCA 19(1), Sec. 4
 */
export function binomialTreeSteps(numRanks: number, root: number): [number, number][][] {
  const steps: [number, number][][] = [];
  const abs = (v: number) => (v + root) % numRanks;
  for (let mask = 1; mask < numRanks; mask *= 2) {
    const pairs: [number, number][] = [];
    for (let v = 0; v < mask && v + mask < numRanks; v++) pairs.push([abs(v), abs(v + mask)]);
    steps.push(pairs);
  }
  return steps;
}

/**
 * Checks a root (or server) rank.
 * @throws RangeError `root must be an integer in [0, 3], got 4`
 * @example checkRoot(0, 4, "root") // 0
 * @param root the rank to check
 * @param numRanks P (integer ≥ 1)
 * @param name the field named in the message ("root", "server")
 * @returns root, unchanged
 * @see MPI 4.0 standard, Collective Communication, MPI_Bcast (root must be a valid rank of the group)
 */
export function checkRoot(root: number, numRanks: number, name: string): number {
  if (!Number.isInteger(root) || root < 0 || root >= numRanks) throw new RangeError(`${name} must be an integer in [0, ${numRanks - 1}], got ${root}`);
  return root;
}
