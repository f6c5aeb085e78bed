/**
 * Structural comparison with tolerances, returning the first difference.
 *
 * Numbers are equal when both are NaN, when they are ===, or (with a
 * tolerance) when |received − expected| ≤ abs + rel·|expected|; infinities
 * must match exactly. Arrays and typed arrays compare length then items;
 * Maps their keys then values, Sets their size and items; plain objects
 * compare their keys then values (with `exactKeys`, a key the received value
 * has and the expected one has not is a difference too).
 */
import { formatValue, typeName } from "./format.js";

/** Absolute and relative tolerance for numbers. */
export interface Tolerance {
  abs?: number;
  rel?: number;
}

/** Options of {@link firstDifference}. */
export interface CompareOptions {
  tol?: Tolerance;
  /** Treat +0 and −0 as different (for rounding exercises). */
  signedZero?: boolean;
  /**
   * A key of the received object (or an own property of an array) that the expected one lacks
   * is a difference ("added key"): the mutation check compares an argument after the call with
   * its copy from before, both ways.
   */
  exactKeys?: boolean;
}

/** A difference found at `path` (e.g. `.perGpu.total` or `[17]`). */
export interface Difference {
  path: string;
  expected: unknown;
  received: unknown;
  reason: string;
}

function numbersMatch(e: number, r: number, o: CompareOptions): boolean {
  if (Number.isNaN(e) || Number.isNaN(r)) return Number.isNaN(e) && Number.isNaN(r);
  if (o.signedZero && e === 0 && r === 0) return Object.is(e, r);
  if (e === r) return true;
  if (!Number.isFinite(e) || !Number.isFinite(r)) return false;
  const abs = o.tol?.abs ?? 0;
  const rel = o.tol?.rel ?? 0;
  return Math.abs(r - e) <= abs + rel * Math.abs(e);
}

/** Returns the first difference between `received` and `expected`, or null when they match. */
export function firstDifference(received: unknown, expected: unknown, o: CompareOptions = {}, path = ""): Difference | null {
  const diff = (reason: string): Difference => ({ path, expected, received, reason });
  if (typeof expected === "number") {
    if (typeof received !== "number") return diff(`returned ${typeName(received)}, expected a number`);
    return numbersMatch(expected, received, o) ? null : diff("value differs");
  }
  if (typeof expected === "bigint" || typeof expected === "string" || typeof expected === "boolean" || expected == null) {
    if (typeof received !== typeof expected) return diff(`returned ${typeName(received)}, expected ${typeName(expected)}`);
    return received === expected ? null : diff("value differs");
  }
  const eIsList = Array.isArray(expected) || ArrayBuffer.isView(expected);
  if (eIsList) {
    const rIsList = Array.isArray(received) || ArrayBuffer.isView(received);
    if (!rIsList) return diff(`returned ${typeName(received)}, expected ${typeName(expected)}`);
    if (ArrayBuffer.isView(expected) && !Array.isArray(received) && received?.constructor !== expected.constructor) {
      return diff(`returned ${typeName(received)}, expected ${typeName(expected)}`);
    }
    const e = expected as ArrayLike<unknown>;
    const r = received as ArrayLike<unknown>;
    if (e.length !== r.length) return diff(`length ${r.length}, expected ${e.length}`);
    for (let i = 0; i < e.length; i++) {
      const ei = e[i], ri = r[i];
      // numbers compared here, without a call per element (a million-element argument is common)
      if (typeof ei === "number" && typeof ri === "number" && numbersMatch(ei, ri, o)) continue;
      const d = firstDifference(ri, ei, o, `${path}[${i}]`);
      if (d) return d;
    }
    // a key added to an array: its own keys beyond the indices (listing them costs one string per item: up to 100,000 items)
    if (o.exactKeys && Array.isArray(expected) && r.length <= 100_000) {
      const extra = Object.keys(r).find((k) => !/^\d+$/.test(k) && !(k in expected));
      if (extra !== undefined) return { path: `${path}.${extra}`, expected: undefined, received: (r as unknown as Record<string, unknown>)[extra], reason: `added key "${extra}"` };
    }
    return null;
  }
  if (expected instanceof Map) {
    if (!(received instanceof Map)) return diff(`returned ${typeName(received)}, expected a Map`);
    if (received.size !== expected.size) return diff(`a Map of ${received.size} entries, expected ${expected.size}`);
    for (const [k, v] of expected) {
      if (!received.has(k)) return { path: `${path}.get(${formatValue(k)})`, expected: v, received: undefined, reason: `missing key ${formatValue(k)}` };
      const d = firstDifference(received.get(k), v, o, `${path}.get(${formatValue(k)})`);
      if (d) return d;
    }
    return null;
  }
  if (expected instanceof Set) {
    if (!(received instanceof Set)) return diff(`returned ${typeName(received)}, expected a Set`);
    if (received.size !== expected.size) return diff(`a Set of ${received.size} items, expected ${expected.size}`);
    const e = [...expected], r = [...received];
    for (let i = 0; i < e.length; i++) {
      const d = typeof e[i] === "object" && e[i] !== null ? firstDifference(r[i], e[i], o, `${path} (item ${i} of the set)`) : received.has(e[i]) ? null : { path, expected: e[i], received: undefined, reason: `missing item ${formatValue(e[i])}` };
      if (d) return d;
    }
    return null;
  }
  if (typeof expected === "object") {
    if (typeof received !== "object" || received === null || Array.isArray(received)) {
      return diff(`returned ${typeName(received)}, expected an object`);
    }
    for (const key of Object.keys(expected as object)) {
      if (!(key in (received as object))) return { path: `${path}.${key}`, expected: (expected as Record<string, unknown>)[key], received: undefined, reason: `missing key "${key}"` };
      const d = firstDifference((received as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], o, `${path}.${key}`);
      if (d) return d;
    }
    if (o.exactKeys) {
      const extra = Object.keys(received as object).find((k) => !(k in (expected as object)));
      if (extra !== undefined) return { path: `${path}.${extra}`, expected: undefined, received: (received as Record<string, unknown>)[extra], reason: `added key "${extra}"` };
    }
    return null;
  }
  return received === expected ? null : diff(`value differs (${formatValue(received)})`);
}

/** Formats a tolerance for messages, e.g. "|Δ| ≤ 1e-6 + 1e-5·|expected|". */
export function formatTolerance(t: Tolerance | undefined): string | undefined {
  if (!t || (!t.abs && !t.rel)) return undefined;
  const parts = [t.abs ? `${t.abs}` : "", t.rel ? `${t.rel}·|expected|` : ""].filter(Boolean);
  return `|received − expected| ≤ ${parts.join(" + ")}`;
}
