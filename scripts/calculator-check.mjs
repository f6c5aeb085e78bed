// The calculators' layout, checked in the browser (issue 27; scripts/browser.mjs runs it on every
// page, so the e2e run and check-page do): for each calculator (src/components/calculator.css), a
// reader scrolls its first, then its last input to the middle of the screen and changes it; once the cells have settled,
// its results must be in view: the results panel's verdict (`[data-calc-result] .calc-verdict`)
// on a wide screen, where the panel sits beside the inputs, or the one-line headline
// (`[data-calc-headline]`) that stays at the foot of a phone's screen. The input is then set back.
// A calculator that takes a pasted config.json must show a syntax error in it at its text area.

/** What a reader changes, in page order: sliders, selects, radio groups, checkboxes (not text boxes). */
const CONTROLS = ".calculator-inputs :is(input[type=range], select, input[type=radio], input[type=checkbox])";

/**
 * Changes one control as a reader would and returns a function that sets it back.
 * @param {import("playwright-core").Locator} control
 */
async function change(control) {
  const kind = await control.evaluate((e) => (e.tagName === "SELECT" ? "select" : e.type));
  // where a reader works: the control in the middle of the screen
  await control.evaluate((e) => e.scrollIntoView({ block: "center" }));
  if (kind === "select") {
    const { value, other } = await control.evaluate((e) => ({ value: e.value, other: [...e.options].map((o) => o.value).find((v) => v !== e.value) }));
    await control.selectOption(other);
    return () => control.selectOption(value);
  }
  if (kind === "range") {
    await control.focus();
    const before = await control.inputValue();
    let [there, back] = ["ArrowRight", "ArrowLeft"];
    await control.press(there);
    if ((await control.inputValue()) === before) [there, back] = [back, there], await control.press(there); // at its maximum
    return () => control.press(back);
  }
  if (kind === "checkbox") {
    await control.click();
    return () => control.click();
  }
  // a radio button: choose another of its group, then the one chosen before
  const group = control.locator("xpath=ancestor::form[1]").locator("input[type=radio]");
  const checked = await group.evaluateAll((rs) => rs.findIndex((r) => r.checked));
  const other = checked === 0 ? 1 : 0;
  await group.nth(other).click();
  return () => group.nth(Math.max(0, checked)).click();
}

/**
 * Whether the calculator's result line is on screen: its top and bottom inside the viewport.
 * @returns {Promise<string|null>} what is wrong, or null
 */
async function resultInView(page, calculator, wide) {
  return calculator.evaluate((calc, wide) => {
    const panel = calc.querySelector("[data-calc-result]");
    const line = wide ? panel?.querySelector(".calc-verdict") ?? panel : calc.querySelector("[data-calc-headline]");
    if (!line) return wide ? "no results panel (resultsPanel, [data-calc-result])" : "no headline ([data-calc-headline]) for a phone's screen";
    const r = line.getBoundingClientRect();
    if (r.height === 0) return `its ${wide ? "verdict" : "headline"} is not shown`;
    if (r.top < -1 || r.bottom > window.innerHeight + 1) return `its ${wide ? "verdict" : "headline"} is off screen (top ${Math.round(r.top)} px, bottom ${Math.round(r.bottom)} px, window ${window.innerHeight} px)`;
    return null;
  }, wide);
}

/**
 * A calculator that sizes a pasted config.json (a select with a "pasted config.json" option): a
 * syntax error in the pasted text must show at the text area, not only in the results.
 * @returns {Promise<string|null>} what is wrong, or null (also when the calculator takes no paste)
 */
async function pastedErrorProblem(calc, settle) {
  const select = calc.locator(".calculator-inputs select").filter({ has: calc.page().locator("option", { hasText: "pasted config.json" }) }).first();
  if ((await select.count()) === 0) return null;
  const before = await select.inputValue();
  await select.selectOption({ label: "pasted config.json" });
  await settle();
  const area = calc.locator(".calculator-inputs textarea").first();
  let wrong = null;
  if ((await area.count()) === 0) wrong = 'choosing "pasted config.json" shows no text area';
  else {
    await area.fill('{"model_type": "llama", "hidden_size": 4096,, }');
    await area.dispatchEvent("input");
    await settle();
    wrong = await area.evaluate((a) => {
      const bottom = a.getBoundingClientRect().bottom;
      // a field's slot (calculator.js's fieldError) or an alert the page shows under the box
      const shown = [...a.closest(".calculator").querySelectorAll(".field-error, [role=alert]")].filter((e) => !e.hidden && e.getBoundingClientRect().height > 0);
      const near = shown.find((e) => e.getBoundingClientRect().top >= bottom - 1 && e.getBoundingClientRect().top - bottom < 120);
      return near ? null : `a syntax error in the pasted config.json shows no message at its text area (${shown.length} field messages shown elsewhere)`;
    });
  }
  await select.selectOption(before);
  await settle();
  return wrong;
}

/**
 * Runs the check on every calculator of an open page.
 * @param {import("playwright-core").Page} page
 * @param {{width: number, settle: () => Promise<boolean>}} o
 * @returns {Promise<string[]>} problems, each naming the calculator and the input
 */
export async function calculatorProblems(page, { width, settle }) {
  const problems = [];
  const wide = width >= 1000;
  const calculators = await page.locator(".calculator").all();
  for (const [i, calc] of calculators.entries()) {
    const controls = await calc.locator(CONTROLS).all();
    if (controls.length === 0) { problems.push(`calculator ${i + 1} has no inputs in .calculator-inputs`); continue; }
    for (const control of [...new Set([controls[0], controls.at(-1)])]) {
      const name = await control.evaluate((e) => e.closest("form")?.querySelector("label")?.textContent?.trim() || e.getAttribute("aria-label") || e.name || e.type);
      const restore = await change(control);
      await settle();
      const wrong = await resultInView(page, calc, wide);
      if (wrong) problems.push(`calculator ${i + 1} ("${name}" changed): ${wrong}`);
      await restore();
      await settle();
    }
    const pasted = await pastedErrorProblem(calc, settle);
    if (pasted) problems.push(`calculator ${i + 1}: ${pasted}`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return problems;
}
