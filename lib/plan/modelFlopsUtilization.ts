function positive(name: string, v: number): void {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`${name} must be a finite number > 0, got ${v}`);
}

/**
 * Model-FLOP utilisation (MFU): the FLOP/s the model needs at a measured
 * throughput, 6Ψ per token (forward 2Ψ, backward 4Ψ), over the peak of all
 * the GPUs. Recomputation is not counted: it is work the hardware does, not
 * work the model needs (counting it gives the hardware-FLOP utilisation, HFU).
 * Attention's s-dependent products are not counted either, so MFU is a lower
 * bound (llm-foundry, which adds them, reports a little more for the same run).
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
