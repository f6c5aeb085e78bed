/**
 * Assertions for graders. Each calls the student's function on a private copy
 * of the arguments, so that an implementation that mutates its input is caught
 * and the grader's own data stays intact, awaits a returned promise, and
 * throws a {@link CheckFailure} that shows the call, the expected and received
 * values, the tolerance and a hint.
 */
import * as fc from "fast-check";
import { CheckFailure, isNotImplemented } from "./errors.js";
import { firstDifference, formatTolerance, type CompareOptions } from "./compare.js";
import { formatCall, formatValue } from "./format.js";
import type { AnyFunction } from "./define.js";

/** Options of {@link expectCall} and {@link expectSame}. */
export interface ExpectOptions extends CompareOptions {
  /** Shown under the failure: what the student most likely got wrong. */
  hint?: string;
  /** Formats expected and received values (default: exact numbers), e.g. as bit patterns. */
  format?: (v: unknown) => string;
  /** Overrides the rendered call, e.g. for long arguments. */
  label?: string;
  /** Name of the student's function in the rendered call (default: the function's name). */
  name?: string;
}

function copy<T>(v: T): T {
  try {
    return structuredClone(v);
  } catch {
    return v; // functions or class instances: passed as they are
  }
}

/** Calls `impl(...args)` on a copy of `args`; fails if it throws (other than NotImplemented) or mutates its input. */
export async function callSafely<F extends AnyFunction>(impl: F, args: Parameters<F>, o: ExpectOptions = {}): Promise<Awaited<ReturnType<F>>> {
  const call = o.label ?? formatCall(o.name ?? (impl.name || "f"), args);
  const mine = copy(args);
  let out: Awaited<ReturnType<F>>;
  try {
    out = await impl(...mine);
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    const e = err as Error;
    throw new CheckFailure({ call, detail: `threw ${e?.name ?? "an error"}: ${e?.message ?? String(err)}`, hint: o.hint });
  }
  for (let i = 0; i < args.length; i++) {
    if (mine[i] !== args[i] && firstDifference(mine[i], args[i], { signedZero: true })) {
      throw new CheckFailure({ call, detail: `mutated its argument #${i + 1}; leave inputs unchanged and return a new value`, hint: o.hint });
    }
  }
  return out;
}

/** Asserts that `impl(...args)` returns `expected` (within `o.tol`). Returns what impl returned. */
export async function expectCall<F extends AnyFunction>(impl: F, args: Parameters<F>, expected: unknown, o: ExpectOptions = {}): Promise<Awaited<ReturnType<F>>> {
  const received = await callSafely(impl, args, o);
  const d = firstDifference(received, expected, o);
  if (d) {
    const fmt = o.format ?? ((v: unknown) => formatValue(v));
    const where = d.path ? ` at ${d.path}` : "";
    throw new CheckFailure({
      call: o.label ?? formatCall(o.name ?? (impl.name || "f"), args),
      detail: d.reason === "value differs" ? (where ? `wrong value${where}` : undefined) : `${d.reason}${where}`,
      expected: fmt(d.expected),
      received: fmt(d.received),
      tolerance: formatTolerance(o.tol),
      hint: o.hint,
    });
  }
  return received;
}

/** Asserts that `impl(...args)` returns what `reference(...args)` returns (within `o.tol`). */
export async function expectSame<F extends AnyFunction>(impl: F, reference: F, args: Parameters<F>, o: ExpectOptions = {}): Promise<Awaited<ReturnType<F>>> {
  const expected = await reference(...copy(args));
  return expectCall(impl, args, expected, o);
}

/** Asserts that `impl(...args)` throws (an Error whose message matches `pattern`, when given). */
export async function expectThrows<F extends AnyFunction>(impl: F, args: Parameters<F>, pattern?: RegExp, o: ExpectOptions = {}): Promise<void> {
  const call = o.label ?? formatCall(o.name ?? (impl.name || "f"), args);
  let out: unknown;
  try {
    out = await impl(...copy(args));
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    const message = (err as Error)?.message ?? String(err);
    if (pattern && !pattern.test(message)) {
      throw new CheckFailure({ call, detail: `threw "${message}", expected a message matching ${pattern}`, hint: o.hint });
    }
    return;
  }
  throw new CheckFailure({ call, detail: `returned ${formatValue(out)} instead of throwing an error`, hint: o.hint });
}

/** Fails the current check with a free-text reason. */
export function fail(detail: string, hint?: string): never {
  throw new CheckFailure({ detail, hint });
}

/** Options of {@link property}. */
export interface PropertyOptions {
  numRuns?: number;
  /** Fixed seed so that every run grades the same inputs (default 42). */
  seed?: number;
}

/**
 * Runs `predicate` on seeded random inputs from `arb` (fast-check); on failure
 * rethrows the CheckFailure of the shrunk counterexample, so the student sees
 * the smallest failing input.
 */
export async function property<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void> | void, o: PropertyOptions = {}): Promise<void> {
  const details = await fc.check(fc.asyncProperty(arb, async (v) => { await predicate(v); }), { numRuns: o.numRuns ?? 100, seed: o.seed ?? 42 });
  if (!details.failed) return;
  const err = details.errorInstance;
  if (isNotImplemented(err) || err instanceof CheckFailure || (err as Error)?.name === "CheckFailure") throw err;
  throw new CheckFailure({ detail: `failed on ${formatValue(details.counterexample)}: ${(err as Error)?.message ?? String(err)}` });
}
