import {html} from "htl";

/**
 * A number as prose shows it: exact integers below 10⁹, `digits` significant
 * digits otherwise, exponent notation below `small` or from 10⁶ up; −0, ±∞,
 * NaN and a missing value (—) spelled out, so no cell ever prints "undefined".
 * @param {number|null|undefined} x
 * @param {number} [digits=4] significant digits
 * @param {number} [small=1e-3] magnitudes below this use exponent notation
 * @returns {string}
 * @example show(0.000123456) // "1.235e-4"
 */
export function show(x, digits = 4, small = 1e-3) {
  if (x === null || x === undefined) return "—";
  if (typeof x !== "number") return String(x);
  if (Number.isNaN(x)) return "NaN";
  if (Object.is(x, -0)) return "−0";
  if (!Number.isFinite(x)) return x > 0 ? "+∞" : "−∞";
  if (x === 0) return "0";
  if (Number.isInteger(x) && Math.abs(x) < 1e9) return String(x);
  const a = Math.abs(x);
  return a >= 1e6 || a < small ? x.toExponential(digits - 1).replace("e+", "e") : String(+x.toPrecision(digits));
}

/**
 * The message of a rejected input, shown where the figure would be (the
 * inputs keep what the reader typed).
 * @param {Error} error the error thrown by a lib function; its message names the field
 * @returns {HTMLElement}
 */
export function errorBox(error) {
  return html`<div class="caution" role="alert" style="margin:0.5rem 0">⚠ ${error?.message ?? String(error)}</div>`;
}
