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
import { formatCall, formatValue, typeName } from "./format.js";
import type { AnyFunction } from "./define.js";
import { mulberry32 } from "../../lib/random.js";

/** Options of {@link expectCall} and {@link expectSame}. */
export interface ExpectOptions extends CompareOptions {
  /** Shown under the failure: what the student most likely got wrong. */
  hint?: string;
  /**
   * Formats expected and received values (default: exact numbers), e.g. with their bit patterns.
   * It must render the value's own representation (its own bits, or none when it has none),
   * never that of a rounded or expected value. The harness drops a received value's rendering
   * that cannot be told apart from the expected one's, and shows its exact value instead.
   */
  format?: (v: unknown) => string;
  /** Overrides the rendered call, e.g. for long arguments. */
  label?: string;
  /** Name of the student's function in the rendered call (default: the function's name). */
  name?: string;
  /**
   * Accept a result that shares arrays or objects with the arguments. Only where the
   * contract says so: by default a result must be made of new arrays and objects.
   */
  allowAliasing?: boolean;
  /**
   * The contract says the function writes into its arguments by design (e.g. it accumulates
   * gradients into the model's parameters, as PyTorch's backward fills `.grad`): the arguments
   * are passed as they are, not copied, and not checked for mutation; the grader checks
   * what was written. Only where the contract says so.
   */
  mutatesArguments?: boolean;
}

/** An error class that {@link expectThrows} can require, e.g. RangeError. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ErrorClass = abstract new (...args: any[]) => Error;

/** Options of {@link expectThrows}: those of {@link ExpectOptions} and the class the error must have. */
export interface ThrowsOptions extends ExpectOptions {
  /** The error must be an instance of this class (or carry its name), e.g. RangeError. */
  class?: ErrorClass;
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * A deep copy of the arguments that the student's function receives. Arrays, typed arrays
 * (views on one buffer stay on one copied buffer), plain objects, Maps, Sets and Dates are
 * copied; class instances and functions are passed as they are (their private state
 * cannot be copied faithfully), so a grader must not rely on those staying unchanged.
 */
export function copyArgs<T>(v: T, seen = new Map<unknown, unknown>()): T {
  if (typeof v !== "object" || v === null) return v;
  if (seen.has(v)) return seen.get(v) as T;
  const put = <U>(out: U): U => { seen.set(v, out); return out; };
  if (Array.isArray(v)) {
    const out = put(new Array(v.length));
    for (let i = 0; i < v.length; i++) if (i in v) out[i] = copyArgs(v[i], seen);
    return out as T;
  }
  if (v instanceof ArrayBuffer) return put(v.slice(0)) as T;
  if (ArrayBuffer.isView(v)) {
    const buffer = copyArgs(v.buffer, seen) as ArrayBuffer;
    if (v instanceof DataView) return put(new DataView(buffer, v.byteOffset, v.byteLength)) as T;
    const Ctor = v.constructor as new (b: ArrayBuffer, offset: number, length: number) => T;
    return put(new Ctor(buffer, v.byteOffset, (v as unknown as ArrayLike<unknown>).length));
  }
  if (v instanceof Map) {
    const out = put(new Map());
    for (const [k, x] of v) out.set(copyArgs(k, seen), copyArgs(x, seen));
    return out as T;
  }
  if (v instanceof Set) {
    const out = put(new Set());
    for (const x of v) out.add(copyArgs(x, seen));
    return out as T;
  }
  if (v instanceof Date) return put(new Date(v.getTime())) as T;
  if (isPlainObject(v)) {
    const out = put(Object.create(Object.getPrototypeOf(v)) as Record<string, unknown>);
    for (const k of Object.keys(v)) out[k] = copyArgs((v as Record<string, unknown>)[k], seen);
    return out as T;
  }
  return v; // a class instance: passed as it is
}

/** True for the containers a result must not share with its input. */
function isContainer(v: object): boolean {
  return Array.isArray(v) || ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Map || v instanceof Set || isPlainObject(v);
}

/**
 * Visits every object reachable from `v` (array items, own enumerable properties, Map and Set
 * entries; not the numbers of typed arrays), once each, with its path such as `.a[2]`.
 */
function walk(v: unknown, path: string, visit: (o: object, path: string) => void, seen = new Set<object>()): void {
  if (typeof v !== "object" || v === null || seen.has(v)) return;
  seen.add(v);
  visit(v, path);
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (typeof v[i] === "object" && v[i] !== null) walk(v[i], `${path}[${i}]`, visit, seen);
    return;
  }
  if (v instanceof Map) {
    for (const [k, x] of v) walk(x, `${path}.get(${formatValue(k)})`, visit, seen);
    return;
  }
  if (v instanceof Set) {
    let i = 0;
    for (const x of v) walk(x, `${path} (item ${i++} of the set)`, visit, seen);
    return;
  }
  for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], `${path}.${k}`, visit, seen);
}

/**
 * Where a result shares an array or object with the arguments it was called on: the
 * result's path and the argument's, or null when the result is made of new containers.
 * A typed array that views an argument's buffer (a `subarray`) counts as shared.
 * @example aliasOf([[1, 2]], [[1, 2]]) // null (the result is a new array)
 * @example const xs = [1, 2]; aliasOf(xs, [xs]) // { resultPath: "", argument: 1, argumentPath: "" }
 */
export function aliasOf(result: unknown, args: readonly unknown[]): { resultPath: string; argument: number; argumentPath: string; view: boolean } | null {
  if (typeof result !== "object" || result === null) return null;
  const owners = new Map<object, { argument: number; argumentPath: string }>();
  args.forEach((a, i) => walk(a, "", (o, p) => {
    if (!owners.has(o)) owners.set(o, { argument: i + 1, argumentPath: p });
    if (ArrayBuffer.isView(o) && !owners.has(o.buffer)) owners.set(o.buffer, { argument: i + 1, argumentPath: p });
  }));
  let found: { resultPath: string; argument: number; argumentPath: string; view: boolean } | null = null;
  walk(result, "", (o, p) => {
    if (found || !isContainer(o)) return;
    const same = owners.get(o);
    if (same) { found = { resultPath: p, ...same, view: false }; return; }
    if (ArrayBuffer.isView(o)) {
      const shared = owners.get(o.buffer);
      if (shared) found = { resultPath: p, ...shared, view: true };
    }
  });
  return found;
}

/** The student-facing sentence for an alias found by {@link aliasOf}. */
function aliasMessage(a: NonNullable<ReturnType<typeof aliasOf>>): string {
  const arg = `argument #${a.argument}${a.argumentPath ? ` (at ${a.argumentPath})` : ""}`;
  const res = a.resultPath ? `the result at ${a.resultPath}` : "the result";
  if (a.view) return `${res} is a view on the memory of ${arg}: writing to one changes the other; return a copy with its own memory`;
  if (!a.resultPath && !a.argumentPath) return `returned argument #${a.argument} itself: return a new array or object, not the caller's input`;
  return `${res} is ${arg} itself, not a new array or object: the caller's data and your result must not be shared`;
}

/**
 * What a stack overflow most likely is, for a large input: a recursion as deep as the input,
 * or an array spread into a call's arguments (`Math.max(...xs)`, `push(...xs)`).
 */
function stackNote(e: Error | undefined): string {
  return e instanceof RangeError || e?.name === "RangeError"
    ? /call stack|too many arguments|Invalid array length/i.test(e.message)
      ? " (with a large input: a recursion as deep as the input, or an array spread into a call's arguments such as Math.max(...xs) or push(...xs), which fail above about 10⁵ items: use a loop)"
      : ""
    : "";
}

/**
 * A deterministic array of `n` numbers for a large-input check (10⁶ items catch recursion
 * and argument-spread limits): `value(i, rand)` with `rand()` uniform in [0, 1) from a
 * seeded generator (default: uniform in [−1, 1)).
 * @example largeArray(3, 1) // three numbers in [−1, 1), the same on every run
 */
export function largeArray(n: number, seed = 1, value: (i: number, rand: () => number) => number = (_i, r) => 2 * r() - 1): number[] {
  const rand = mulberry32(seed);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = value(i, rand);
  return out;
}

/**
 * Calls `impl(...args)` on a copy of `args`; fails if it throws (other than NotImplemented),
 * mutates its input, or returns its input (or an array or object inside it) instead of
 * new ones (unless `o.allowAliasing`).
 */
export async function callSafely<F extends AnyFunction>(impl: F, args: Parameters<F>, o: ExpectOptions = {}): Promise<Awaited<ReturnType<F>>> {
  const call = o.label ?? formatCall(o.name ?? (impl.name || "f"), args);
  const mine = o.mutatesArguments ? args : copyArgs(args);
  let out: Awaited<ReturnType<F>>;
  try {
    out = await impl(...mine);
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    const e = err as Error;
    throw new CheckFailure({ call, detail: `threw ${e?.name ?? "an error"}: ${e?.message ?? String(err)}${stackNote(e)}`, hint: o.hint });
  }
  for (let i = 0; i < args.length; i++) {
    const d = mine[i] !== args[i] ? firstDifference(mine[i], args[i], { signedZero: true, exactKeys: true }) : null;
    if (d) {
      const what = d.reason.startsWith("added key") ? `${d.reason} at ${d.path || "its top level"}` : `changed it${d.path ? ` at ${d.path}` : ""}`;
      throw new CheckFailure({ call, detail: `mutated its argument #${i + 1} (${what}); leave inputs unchanged and return a new value`, hint: o.hint });
    }
  }
  if (!o.allowAliasing) {
    const alias = aliasOf(out, mine);
    if (alias) throw new CheckFailure({ call, detail: aliasMessage(alias), hint: o.hint });
  }
  return out;
}

/**
 * Renders `received` with the grader's format, unless that rendering is the expected
 * value's own (a format that shows a rounded value's bits would make 2049 look like 2048):
 * then the exact value, from {@link formatValue}.
 */
export function formatReceived(received: unknown, expected: unknown, format?: (v: unknown) => string): string {
  if (!format) return formatValue(received);
  const r = format(received);
  const own = formatValue(received);
  if (Object.is(received, expected)) return r;
  // The parts of each rendering besides the exact value: equal means the format cannot tell them apart.
  const rest = (s: string, exact: string) => s.replace(exact, "").trim();
  if (r === format(expected) || (rest(r, own) !== "" && rest(r, own) === rest(format(expected), formatValue(expected)))) return own;
  return r;
}

/** Fails unless `received`, what `impl(...args)` returned, is `expected` (within `o.tol`). */
function compareResult<F extends AnyFunction>(impl: F, args: Parameters<F>, received: unknown, expected: unknown, o: ExpectOptions): void {
  const d = firstDifference(received, expected, o);
  if (!d) return;
  const fmt = o.format ?? ((v: unknown) => formatValue(v));
  const where = d.path ? ` at ${d.path}` : "";
  throw new CheckFailure({
    call: o.label ?? formatCall(o.name ?? (impl.name || "f"), args),
    detail: d.reason === "value differs" ? (where ? `wrong value${where}` : undefined) : `${d.reason}${where}`,
    expected: fmt(d.expected),
    received: formatReceived(d.received, d.expected, o.format),
    tolerance: formatTolerance(o.tol),
    hint: o.hint,
  });
}

/** Asserts that `impl(...args)` returns `expected` (within `o.tol`). Returns what impl returned. */
export async function expectCall<F extends AnyFunction>(impl: F, args: Parameters<F>, expected: unknown, o: ExpectOptions = {}): Promise<Awaited<ReturnType<F>>> {
  const received = await callSafely(impl, args, o);
  compareResult(impl, args, received, expected, o);
  return received;
}

/**
 * Asserts that `impl(...args)` returns what `reference(...args)` returns (within `o.tol`).
 * The student's function runs first: an untouched stub stops the check before the reference runs.
 */
export async function expectSame<F extends AnyFunction>(impl: F, reference: F, args: Parameters<F>, o: ExpectOptions = {}): Promise<Awaited<ReturnType<F>>> {
  const received = await callSafely(impl, args, o);
  const expected = await reference(...copyArgs(args));
  compareResult(impl, args, received, expected, o);
  return received;
}

/** What an error must look like in {@link expectThrows}: a message pattern, a class, or both. */
export type ThrowsPattern = RegExp | { message?: RegExp; class?: ErrorClass };

/**
 * Asserts that `impl(...args)` throws: an Error whose message matches `pattern` (when given)
 * and whose class is `o.class` or `pattern.class` (when given, e.g. RangeError). A subclass
 * counts; so does an error from another realm that carries the class's name.
 * @example await expectThrows(f, [-1], /bits/, { class: RangeError })
 * @example await expectThrows(f, [-1], { message: /bits/, class: RangeError })
 */
export async function expectThrows<F extends AnyFunction>(impl: F, args: Parameters<F>, pattern?: ThrowsPattern, o: ThrowsOptions = {}): Promise<void> {
  const call = o.label ?? formatCall(o.name ?? (impl.name || "f"), args);
  const message = pattern instanceof RegExp ? pattern : pattern?.message;
  const cls = o.class ?? (pattern instanceof RegExp ? undefined : pattern?.class);
  let out: unknown;
  try {
    out = await impl(...copyArgs(args));
  } catch (err) {
    if (isNotImplemented(err)) throw err;
    const text = (err as Error)?.message ?? String(err);
    const thrownName = err instanceof Error ? err.name || err.constructor?.name || "Error" : `a non-Error value (${typeName(err)})`;
    if (cls && !(err instanceof cls) && !(err instanceof Error && (err.constructor?.name === cls.name || err.name === cls.name))) {
      throw new CheckFailure({ call, detail: `threw ${thrownName} ("${text}"), expected a ${cls.name}${message ? ` whose message matches ${message}` : ""}`, hint: o.hint });
    }
    if (message && !message.test(text)) {
      throw new CheckFailure({ call, detail: `threw ${thrownName} "${text}", expected a message matching ${message}`, hint: o.hint });
    }
    return;
  }
  throw new CheckFailure({ call, detail: `returned ${formatValue(out)} instead of throwing ${cls ? `a ${cls.name}` : "an error"}`, hint: o.hint });
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
