// Skip links and the phone's section navigation, written into every built page by the post-build
// step (scripts/navigation.mjs), checked here on a page shaped as Framework 1.13 renders it; the
// e2e run checks them live in Chromium at 1280 and 390 px (scripts/phone-nav-check.mjs).
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
// @ts-expect-error: a plain ES module without types
import { addNavigation, tocItems, FIRST_CALCULATOR } from "../scripts/navigation.mjs";

const render = readFileSync(join(createRequire(import.meta.url).resolve("@observablehq/framework/package.json"), "..", "dist", "render.js"), "utf8");

const page = (body: string, toc = true) => `<!DOCTYPE html>
<html lang="en">
<body>
<input id="observablehq-sidebar-toggle" type="checkbox" title="Toggle sidebar">
<div id="observablehq-center">
${toc ? `<aside id="observablehq-toc" data-selector="h2">
<nav>
<div>Contents</div>
<ol>
<li class="observablehq-secondary-link"><a href="#why">Why</a></li>
<li class="observablehq-secondary-link"><a href="#calculator">Calculator</a></li>
<li class="observablehq-secondary-link"><a href="#glossary">Glossary (术语)</a></li>
</ol>
</nav>
</aside>` : ""}
<main id="observablehq-main" class="observablehq">
${body}
</main>
</div>
</body>
</html>`;

describe("addNavigation(html)", () => {
  it("Framework's template still writes the markup it reads (the table of contents, <main>)", () => {
    expect(render).toContain('<aside id="observablehq-toc" data-selector=');
    expect(render).toContain('<li class="observablehq-secondary-link"><a href="${href}">');
    expect(render).toContain('<main id="observablehq-main" class="observablehq');
  });

  it("adds the skip links first in <body>, the calculator's with an id on the first calculator, and main takes the focus", () => {
    const out: string = addNavigation(page('<h2 id="calculator">Calculator</h2>\n<div class="calculator"><div class="calculator-grid"></div></div>\n<div class="calculator"></div>'));
    expect(out).toMatch(/<body>\n<nav class="skip-links" aria-label="Skip links"><a class="skip-link" href="#observablehq-main">Skip to the content<\/a><a class="skip-link" href="#first-calculator">Skip to the calculator<\/a><\/nav>/);
    expect(out).toContain(`<div id="${FIRST_CALCULATOR}" class="calculator">`);
    expect(out.match(/id="first-calculator"/g)).toHaveLength(1);
    expect(out).toContain('<main id="observablehq-main" tabindex="-1" class="observablehq">');
  });

  it("keeps a calculator's own id as the skip link's target", () => {
    const out: string = addNavigation(page('<div class="calculator" id="sizing"></div>'));
    expect(out).toContain('href="#sizing">Skip to the calculator</a>');
    expect(out).not.toContain(FIRST_CALCULATOR);
  });

  it("copies the table of contents into a Sections list just before <main>, link for link", () => {
    const input = page("<p>text</p>");
    const out: string = addNavigation(input);
    const nav = /<nav class="phone-toc" aria-label="Sections of this page"><details><summary>Sections<\/summary><ol>([\s\S]*?)<\/ol><\/details><\/nav>\n<main /.exec(out);
    expect(nav).not.toBeNull();
    expect(nav![1].trim().split("\n")).toEqual(tocItems(input));
    expect(tocItems(input)).toHaveLength(3);
    expect(out).not.toContain("Skip to the calculator");
  });

  it("writes no Sections list for a page without a table of contents (the home page), and is idempotent", () => {
    const home: string = addNavigation(page("<p>home</p>", false));
    expect(home).not.toContain("phone-toc");
    expect(home).toContain("Skip to the content");
    const once: string = addNavigation(page('<div class="calculator"></div>'));
    expect(addNavigation(once)).toBe(once);
    expect(addNavigation("<html><body>no main</body></html>")).toBe("<html><body>no main</body></html>");
  });
});
