/**
 * A tensor-parallel layout of Colossal-AI for P ranks.
 * @see {@link multiDimTpCosts}
 */
export type TpMode = "1D" | "2D" | "2.5D" | "3D";

/**
 * One row of {@link multiDimTpCosts}: one linear layer of an n × n weight on n tokens, per rank.
 * @see {@link multiDimTpCosts}
 */
export interface TpModeCost {
  mode: TpMode;
  /** Grid: "P" for 1D, "q × q", "q × q × d", "q × q × q". */
  grid: string;
  /** Elements one rank sends in the forward product (ring or binomial-tree collectives, as simulated). */
  forwardElements: number;
  /** Forward and backward together (1D: one all-reduce; 2D, 2.5D: three SUMMA products; 3D: six collectives). */
  stepElements: number;
  /** Elements one rank keeps of X, W and Y between the passes. */
  memoryElements: number;
  /** Colossal-AI's table (docs/source/en/features/*_tensor_parallel.md): communication bandwidth factor, as printed. */
  colossalBandwidth: number;
  /** Colossal-AI's table: parameter memory factor. */
  colossalParams: number;
  /** Colossal-AI's table: activation memory factor. */
  colossalActivations: number;
}

function check(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
}

/**
 * Per-rank communication and memory of one linear layer Y = X·W (X and W n × n)
 * under Colossal-AI's four tensor-parallel layouts on the same P ranks, where P fits:
 * 1D (Megatron, any P), 2D (P = q²), 2.5D (P = q²·d, the given d), 3D (P = q³).
 *
 * Our counts, each tied in tests to a simulation on lib/collectives' World:
 * - 1D: one ring all-reduce of (n, n) per linear (f in backward for a column layer, g in forward for a row layer): 2(P−1)/P·n²;
 *   every rank keeps all of X: n² + 2n²/P.
 * - 2D ({@link summa2d}): one SUMMA sends (q−1)·(n² + n²) in total, 2(q−1)n²/q² per rank; forward and the two
 *   backward products (dX = dY·Wᵀ, dW = Xᵀ·dY, Xu et al. 2021) are three SUMMA: 6(q−1)n²/q². Memory 3n²/q².
 * - 2.5D ({@link summa25d}): forward (q−1)(1 + d)n²/(d·q²) per rank; three such products 3(q−1)(d+1)n²/(d·q²)
 *   (the backward's extra sum of W's gradient over the d layers is not counted). Memory (1 + 2/d)·n²/q².
 * - 3D ({@link linear3d}): three collectives forward, three backward, each (q−1)n²/q³ per rank: 6(q−1)n²/q³. Memory 3n²/q³.
 *
 * Beside them, the factors Colossal-AI's documentation prints (bandwidth 2(P−1)/P, 6(q−1)/q, 3(q−1)(d+1)/(dq),
 * 6(q−1)/q³; parameters 1/P, 1/q², 1/q², 1/q³; activations 1, 1/q², 1/(dq²), 1/q³). Ours match the 1D and 3D
 * bandwidth factors (× n²) and every memory factor; for 2D and 2.5D ours are the printed factors divided by q
 * (the same dependence on d: the 2.5D/2D ratio is (d + 1)/(2d) in both).
 * @param P ranks; @param n width (n² elements per tensor); @param d depth for 2.5D (default 2)
 * @returns the modes that fit P, in the order 1D, 2D, 2.5D, 3D
 * @throws RangeError `P must be an integer >= 1, got 0`
 * @example multiDimTpCosts(64, 1024).map((r) => r.mode) // ["1D", "2D", "2.5D", "3D"] (8², 4²·4, 4³)
 * @see Colossal-AI docs/source/en/features/{1D,2D,2p5D,3D}_tensor_parallel.md at 4f9953be; Xu et al. 2021 (Optimus, arXiv:2104.05343);
 *   Wang et al. 2021 (Tesseract, arXiv:2105.14500); Bian et al. 2021 (arXiv:2105.14450)
 */
export function multiDimTpCosts(P: number, n: number, d = 2): TpModeCost[] {
  check("P", P); check("n", n); check("d", d);
  const n2 = n * n, rows: TpModeCost[] = [];
  rows.push({
    mode: "1D", grid: `${P}`, forwardElements: (2 * (P - 1) / P) * n2 / 2, stepElements: (2 * (P - 1) / P) * n2, memoryElements: n2 + 2 * n2 / P,
    colossalBandwidth: 2 * (P - 1) / P, colossalParams: 1 / P, colossalActivations: 1,
  });
  const root = (x: number, k: number) => { const r = Math.round(x ** (1 / k)); return r ** k === x ? r : 0; };
  const q2 = root(P, 2);
  if (q2 > 0) rows.push({
    mode: "2D", grid: `${q2} × ${q2}`, forwardElements: 2 * (q2 - 1) * n2 / q2 ** 2, stepElements: 6 * (q2 - 1) * n2 / q2 ** 2, memoryElements: 3 * n2 / q2 ** 2,
    colossalBandwidth: 6 * (q2 - 1) / q2, colossalParams: 1 / q2 ** 2, colossalActivations: 1 / q2 ** 2,
  });
  const q25 = P % d === 0 ? root(P / d, 2) : 0;
  if (d > 1 && q25 > 0) rows.push({
    mode: "2.5D", grid: `${q25} × ${q25} × ${d}`, forwardElements: (q25 - 1) * (1 + d) * n2 / (d * q25 ** 2), stepElements: 3 * (q25 - 1) * (d + 1) * n2 / (d * q25 ** 2),
    memoryElements: (1 + 2 / d) * n2 / q25 ** 2, colossalBandwidth: 3 * (q25 - 1) * (d + 1) / (d * q25), colossalParams: 1 / q25 ** 2, colossalActivations: 1 / (d * q25 ** 2),
  });
  const q3 = root(P, 3);
  if (q3 > 0) rows.push({
    mode: "3D", grid: `${q3} × ${q3} × ${q3}`, forwardElements: 3 * (q3 - 1) * n2 / q3 ** 3, stepElements: 6 * (q3 - 1) * n2 / q3 ** 3, memoryElements: 3 * n2 / q3 ** 3,
    colossalBandwidth: 6 * (q3 - 1) / q3 ** 3, colossalParams: 1 / q3 ** 3, colossalActivations: 1 / q3 ** 3,
  });
  return rows;
}
