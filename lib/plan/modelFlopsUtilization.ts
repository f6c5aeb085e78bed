function positive(name: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a finite number > 0, got ${v}`);
}

/**
 * Model-FLOP utilisation (MFU) with 6Ψ FLOPs per token (forward 2Ψ, backward
 * 4Ψ): the FLOP/s the model needs at a measured throughput over the peak of all
 * the GPUs. Recomputation is not counted: it is work the hardware does, not
 * work the model needs (counting it gives the hardware-FLOP utilisation, HFU).
 * 6Ψ is a simplification of PaLM's definition, 6N + 12·L·H·Q·T (lib/perf's
 * `palmFlopsPerToken`, which the planner reports): it leaves out attention's s²
 * products and counts an untied input-embedding table, which costs no matmul. It is
 * therefore not a bound either way: below PaLM's MFU for a 70B model at s = 2048
 * (llm-foundry prints 42.57 % where 6Ψ gives 40.9 %) and for GPT-2 124M (its
 * embedding is tied: the table is the output layer's matmul), above it for
 * Pythia-70M at s = 2048 (untied: 6 × its 25.8M-parameter input table exceeds
 * 12·L·H·Q·T ≈ 75.5M, and 6Ψ is 1.23 × PaLM's count).
 * @param tokensPerSecond measured tokens per second, all GPUs together
 * @param params Ψ, the model's parameters
 * @param numGpus GPUs of the run (an integer ≥ 1)
 * @param peakFlopsPerGpu dense 16-bit peak of one GPU, FLOP/s
 * @returns the fraction, e.g. 0.41 (not a percentage)
 * @throws RangeError `tokensPerSecond must be a finite number > 0, got 0`, `params …`, `peakFlopsPerGpu …`,
 *   `numGpus must be an integer >= 1, got 1.5`
 * @example modelFlopsUtilization(66523, 64862437376, 64, 989.5e12) // ≈ 0.409 (MPT-70B on 64 H100; llm-foundry prints 42.57 % with attention)
 * @see Chowdhery et al. 2022, *PaLM*, Appendix B (MFU defined); Korthikanti et al. 2022, §6 (MFU and HFU); llm-foundry scripts/train/benchmarking/README.md
 */
export function modelFlopsUtilization(tokensPerSecond: number, params: number, numGpus: number, peakFlopsPerGpu: number): number {
  positive("tokensPerSecond", tokensPerSecond);
  positive("params", params);
  if (!Number.isSafeInteger(numGpus) || numGpus < 1) throw new RangeError(`numGpus must be an integer >= 1, got ${numGpus}`);
  positive("peakFlopsPerGpu", peakFlopsPerGpu);
  return (6 * params * tokensPerSecond) / (numGpus * peakFlopsPerGpu);
}
