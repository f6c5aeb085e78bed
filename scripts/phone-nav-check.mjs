// The skip links and the phone's section navigation (scripts/navigation.mjs), checked in Chromium
// by scripts/browser.mjs on every page (the e2e run and check-page): the first Tab press reaches
// "Skip to the content", and a calculator's page has "Skip to the calculator", which puts the next
// Tab press on the calculator's first input. At a phone's width a page with sections shows the
// "Sections" button; opened, it lists them; following the last link brings that section's heading
// into view and closes the list.

/**
 * @param {import("playwright-core").Page} page an open page, scrolled to its top
 * @param {{width: number}} o
 * @returns {Promise<string[]>} problems
 */
export async function navigationProblems(page, { width }) {
  const problems = [];
  // As a page just opened: the next Tab starts from the top of the page (not from an input the
  // calculator check changed).
  const fromTop = () => page.evaluate(() => {
    window.scrollTo(0, 0);
    const start = document.createElement("span");
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
    start.remove();
  });
  await fromTop();
  await page.keyboard.press("Tab");
  const first = await page.evaluate(() => ({ text: document.activeElement?.textContent?.trim(), top: document.activeElement?.getBoundingClientRect().top ?? -1 }));
  if (first.text !== "Skip to the content") problems.push(`the first Tab press reaches "${first.text ?? "nothing"}", not the skip link "Skip to the content"`);
  else if (first.top < 0) problems.push("the skip link stays out of sight when it has the focus");
  if (await page.locator(".calculator").count()) {
    const skip = page.locator(".skip-link", { hasText: "Skip to the calculator" });
    if ((await skip.count()) === 0) problems.push('a page with a calculator has no "Skip to the calculator" link');
    else {
      await skip.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      const inCalculator = await page.evaluate(() => !!document.activeElement?.closest(".calculator-inputs"));
      if (!inCalculator) problems.push('after "Skip to the calculator", Tab does not reach the calculator\'s first input');
    }
  }
  await fromTop();
  const sections = await page.locator("#observablehq-toc li a").count();
  if (width < 912 && sections >= 2) {
    // On the page as a reader opens it: blocks the browser has not drawn yet (content-visibility,
    // src/style.css) still have their placeholder height, and a jump past them must land anyway
    // (the page checked so far has drawn them all while it was scrolled through).
    const fresh = await page.context().browser().newPage({ viewport: page.viewportSize(), colorScheme: "light" });
    await fresh.goto(page.url(), { waitUntil: "load" });
    await fresh.waitForTimeout(500);
    const button = fresh.locator(".phone-toc summary");
    if (!(await button.isVisible())) problems.push(`no "Sections" button at ${width} px, where the table of contents is hidden`);
    else {
      await button.click();
      const links = fresh.locator(".phone-toc li a");
      if ((await links.count()) !== sections) problems.push(`the Sections list has ${await links.count()} links, the table of contents ${sections}`);
      const last = links.last();
      if (!(await last.isVisible())) problems.push("the Sections list does not show its links when opened");
      else {
        const id = decodeURIComponent((await last.getAttribute("href")).slice(1));
        await last.click();
        await fresh.waitForTimeout(600);
        const { top, open, height, atEnd } = await fresh.evaluate((id) => ({ top: document.getElementById(id)?.getBoundingClientRect().top ?? -1, open: document.querySelector(".phone-toc details").open, height: window.innerHeight, atEnd: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2 }), id);
        // At the top of the screen (below Framework's header), or as near as the end of the page lets it come.
        if (top < -1 || top > height || (top > 120 && !atEnd)) problems.push(`following "#${id}" in the Sections list leaves its heading ${Math.round(top)} px down the screen, not at its top (src/components/a11y.js settleOn)`);
        if (open) problems.push("the Sections list stays open after a section is chosen");
      }
    }
    await fresh.close();
  } else if (width >= 1280 && (await page.locator(".phone-toc summary").isVisible())) problems.push("the Sections button shows beside the table of contents");
  await page.evaluate(() => window.scrollTo(0, 0));
  return problems;
}
