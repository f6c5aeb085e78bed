/**
 * A 2-D toy loss on which gradient descent, Adam, Newton and Sophia can be compared step by step:
 * L(x, y) = ½·a·x² + ¼·y⁴ − ½·b·y², with a, b >= 0. Along x: a parabola of curvature a (a
 * steep valley when a is large); along y: a double well with minima at y = ±√b and NEGATIVE
 * curvature −b at y = 0 (a saddle at the origin). Gradient, exact diagonal Hessian, no noise.
 */

/** Curvatures of the toy loss. */
export interface ToyLoss { a: number; b: number }
/** Which update. `sophia` uses the code's denominator ρ·h + ε; `sophia-paper` Algorithm 3's max{ρ·h, ε}. */
export type ToyMethod = "gd" | "adam" | "newton" | "sophia" | "sophia-paper";

/**
 * The toy loss, its gradient and its (diagonal) Hessian at a point.
 * @param l curvatures `{a, b}`, finite and >= 0; @param x, y the point
 * @returns `{loss, grad: [gx, gy], hess: [a, 3y² − b]}`
 * @throws {RangeError} `a must be a finite number >= 0, got -1`
 * @example toyLoss({ a: 10, b: 1 }, 1, 0); // {loss: 5, grad: [10, 0], hess: [10, -1]}
 * @see Liu et al. 2023, Figure 2 (a 2-D loss with different curvatures per coordinate, the same idea)
 */
export function toyLoss(l: ToyLoss, x: number, y: number): { loss: number; grad: [number, number]; hess: [number, number] } {
  for (const k of ["a", "b"] as const) if (!(Number.isFinite(l[k]) && l[k] >= 0)) throw new RangeError(`${k} must be a finite number >= 0, got ${l[k]}`);
  return { loss: 0.5 * l.a * x * x + 0.25 * y ** 4 - 0.5 * l.b * y * y, grad: [l.a * x, y ** 3 - l.b * y], hess: [l.a, 3 * y * y - l.b] };
}

/** Options of {@link toyTrajectory}. */
export interface ToyOptions { lr: number; steps: number; rho?: number; beta1?: number; beta2?: number; eps?: number }

/**
 * The path of one method from a start point (deterministic: exact gradients and Hessian).
 * GD: θ −= lr·g. Adam: PyTorch's Adam (β 0.9, 0.999, ε 1e-8, bias-corrected). Newton (diagonal): θ −= lr·g/h.
 * Sophia: m = β1·m + (1 − β1)·g; h = β2·h + (1 − β2)·diag(H) every step (k = 1, bs = 1);
 * θ −= lr·sign(m)·min(|m| / (ρ·h + ε), 1) (`sophia`, the code: h < 0 gives an uphill step) or
 * with max{ρ·h, ε} (`sophia-paper`). Defaults ρ 0.05, β1 0.965, β2 0.99, ε 1e-15 (code) / 1e-12.
 *
 * @param l the loss; @param method the update; @param start [x0, y0]; @param o lr > 0, steps (integer >= 1), ρ, β1, β2, ε
 * @returns `steps + 1` points `{x, y, loss}`; stops early (shorter) if a value is no longer finite or |θ| > 1e6
 * @throws {RangeError} `lr must be a finite number > 0, got 0`; `steps must be an integer >= 1, got 0`; `method must be one of gd, adam, newton, sophia, sophia-paper, got x`
 * @example toyTrajectory({ a: 1, b: 0 }, "newton", [2, 0], { lr: 1, steps: 1 }).at(-1); // {x: 0, y: 0, loss: 0}
 * @see Liu et al. 2023, §2.1–2.2 and Algorithm 3; Liuhong99/Sophia sophia.py; Kingma & Ba 2015 (Adam)
 */
export function toyTrajectory(l: ToyLoss, method: ToyMethod, start: [number, number], o: ToyOptions): { x: number; y: number; loss: number }[] {
  if (!["gd", "adam", "newton", "sophia", "sophia-paper"].includes(method)) throw new RangeError(`method must be one of gd, adam, newton, sophia, sophia-paper, got ${method}`);
  if (!(Number.isFinite(o.lr) && o.lr > 0)) throw new RangeError(`lr must be a finite number > 0, got ${o.lr}`);
  if (!(Number.isInteger(o.steps) && o.steps >= 1)) throw new RangeError(`steps must be an integer >= 1, got ${o.steps}`);
  const rho = o.rho ?? 0.05, b1 = o.beta1 ?? (method === "adam" ? 0.9 : 0.965), b2 = o.beta2 ?? (method === "adam" ? 0.999 : 0.99);
  const eps = o.eps ?? (method === "adam" ? 1e-8 : method === "sophia" ? 1e-15 : 1e-12);
  let th = [start[0], start[1]];
  const m = [0, 0], v = [0, 0], out = [{ x: th[0]!, y: th[1]!, loss: toyLoss(l, th[0]!, th[1]!).loss }];
  for (let t = 1; t <= o.steps; t++) {
    const { grad: g, hess: H } = toyLoss(l, th[0]!, th[1]!);
    th = th.map((p, i) => {
      const gi = g[i]!;
      if (method === "gd") return p - o.lr * gi;
      if (method === "newton") return gi === 0 ? p : p - o.lr * gi / H[i]!; // a flat coordinate stays (avoids 0/0)
      m[i] = b1 * m[i]! + (1 - b1) * gi;
      if (method === "adam") { v[i] = b2 * v[i]! + (1 - b2) * gi * gi; return p - o.lr * (m[i]! / (1 - b1 ** t)) / (Math.sqrt(v[i]! / (1 - b2 ** t)) + eps); }
      v[i] = b2 * v[i]! + (1 - b2) * H[i]!;
      const den = method === "sophia" ? rho * v[i]! + eps : Math.max(rho * v[i]!, eps);
      return p - o.lr * Math.sign(m[i]!) * Math.min(Math.abs(m[i]!) / den, 1);
    });
    const loss = toyLoss(l, th[0]!, th[1]!).loss;
    if (!th.every((p) => Number.isFinite(p) && Math.abs(p) <= 1e6) || !Number.isFinite(loss)) break;
    out.push({ x: th[0]!, y: th[1]!, loss });
  }
  return out;
}
