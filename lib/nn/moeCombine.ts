/**
 * The combine step of an MoE layer and its backward, shared by the one-device
 * layer and the expert-parallel one: y_t = x_t + Σ_j kept_{t,j} · g_{t,j} · o_{t,j}.
 */

/**
 * Adds the gated expert outputs to the residual stream, slot by slot:
 * y_t = x_t + Σ_{j<k} kept_{t,j} · g_{t,j} · o_{t,j}, summed in float64 in slot order, rounded once to float32.
 * @param x (N, h) the layer's input
 * @param slotOutputs (N·k, h): o_{t,j}, the output of token t's j-th expert (ignored where dropped)
 * @param gates (N·k) g_{t,j}
 * @param kept (N·k) 1 if the pair was kept
 * @param topK k
 * @param width h
 * @returns y (N, h), a new array
 * @example combineSlots(Float32Array.of(1), Float32Array.of(2, 4), Float32Array.of(0.5, 0.25), Uint8Array.of(1, 1), 2, 1) // Float32Array [3]
 * @see Shazeer et al. 2017 §2 (y = Σ G(x)_i E_i(x)); He et al. 2016 (the residual connection)
 */
export function combineSlots(x: Float32Array, slotOutputs: Float32Array, gates: Float32Array, kept: Uint8Array, topK: number, width: number): Float32Array {
  const h = width, k = topK, N = x.length / h;
  const y = new Float32Array(N * h);
  for (let t = 0; t < N; t++) {
    for (let c = 0; c < h; c++) {
      let s = x[t * h + c];
      for (let j = 0; j < k; j++) if (kept[t * k + j]) s += gates[t * k + j] * slotOutputs[(t * k + j) * h + c];
      y[t * h + c] = s;
    }
  }
  return y;
}

/**
 * Backward of {@link combineSlots}: ∂L/∂o_{t,j} = kept · g_{t,j} · dy_t and ∂L/∂g_{t,j} = kept · ⟨dy_t, o_{t,j}⟩.
 * @param dy (N, h) ∂L/∂y
 * @param slotOutputs (N·k, h) the forward's o
 * @param gates (N·k)
 * @param kept (N·k)
 * @param topK k
 * @param width h
 * @returns dSlots (N·k, h) and dGates (N·k), new arrays (0 where dropped)
 * @example combineSlotsBackward(Float32Array.of(1), Float32Array.of(2, 4), Float32Array.of(0.5, 0.25), Uint8Array.of(1, 0), 2, 1).dGates // Float32Array [2, 0]
 * @see the product rule on y = x + Σ g·o
 */
export function combineSlotsBackward(dy: Float32Array, slotOutputs: Float32Array, gates: Float32Array, kept: Uint8Array, topK: number, width: number): { dSlots: Float32Array; dGates: Float32Array } {
  const h = width, k = topK, N = dy.length / h;
  const dSlots = new Float32Array(N * k * h), dGates = new Float32Array(N * k);
  for (let s = 0; s < N * k; s++) {
    if (!kept[s]) continue;
    const t = Math.floor(s / k);
    let dot = 0;
    for (let c = 0; c < h; c++) {
      dSlots[s * h + c] = gates[s] * dy[t * h + c];
      dot += dy[t * h + c] * slotOutputs[s * h + c];
    }
    dGates[s] = dot;
  }
  return { dSlots, dGates };
}

/**
 * The input gradient of an MoE layer from its parts: dx_t = dy_t + Σ_j dxSlot_{t,j} + dxRouter_t,
 * in float64 in that order (slots in slot order), rounded once to float32.
 * @param dy (N, h) the residual's gradient
 * @param dxSlots (N·k, h) each slot's ∂L/∂x through its expert (0 where dropped)
 * @param dxRouter (N, h) ∂L/∂x through the router (or empty when N = 0)
 * @param topK k
 * @param width h
 * @returns dx (N, h), a new array
 * @example sumInputGradients(Float32Array.of(1), Float32Array.of(2, 3), Float32Array.of(4), 2, 1) // Float32Array [10]
 * @see the multivariable chain rule (gradients of the paths from x add)
 */
export function sumInputGradients(dy: Float32Array, dxSlots: Float32Array, dxRouter: Float32Array, topK: number, width: number): Float32Array {
  const h = width, k = topK, N = dy.length / h;
  const dx = new Float32Array(N * h);
  for (let t = 0; t < N; t++) {
    for (let c = 0; c < h; c++) {
      let s = dy[t * h + c];
      for (let j = 0; j < k; j++) s += dxSlots[(t * k + j) * h + c];
      dx[t * h + c] = s + dxRouter[t * h + c];
    }
  }
  return dx;
}
