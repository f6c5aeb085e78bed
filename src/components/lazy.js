// Figures drawn when a reader comes near them (issue 9): a chapter page opens with only what
// its first screens show, and every other figure is drawn as the reader scrolls towards it
// (Lighthouse measured most of a page's blocking time in drawing figures nobody sees yet).
// The e2e run scrolls through every page before it checks figures, contrast and screenshots.
// Plot itself is loaded before the first figure is drawn (src/components/plot.js).
import { loadPlot, plotLoaded } from "./plot.js";

/**
 * How far ahead of the viewport a figure is drawn: a quarter of a screen, so that it is drawn
 * just before it shows. (One screen ahead drew the first figures of most pages on open on a
 * phone: sophia's contour figure alone was a 665 ms task at Lighthouse's 4× slowdown.)
 */
const AHEAD = "25% 0px";

/**
 * A box that draws `draw()` into itself when it comes within a quarter screen of the viewport, and
 * keeps `height` px of room until then (the figure's expected height: content below does not
 * jump when it arrives). `draw` returns a DOM node (a Plot figure, an html`` fragment); Plot is
 * loaded before the first `draw` (src/components/plot.js). If it
 * throws, the box shows the error as a cell error does (`observablehq--error`: the e2e run
 * fails on it) and logs it to the console.
 *
 * In a display cell: `display(lazyFigure(() => Plot.plot({…, width}), {height: 320}))`.
 * The cell finishes at once, so nothing that depends on it waits. When its inputs change (a
 * slider, `width`, dark mode) the cell runs again: a figure drawn before is drawn again at once,
 * one never reached waits on.
 */
export function lazyFigure(draw, { height = 300 } = {}) {
  const box = document.createElement("div");
  box.className = "lazy-figure";
  const key = String(draw); // the same figure when its cell runs again (the same code)
  const fill = () => {
    if (!plotLoaded()) return void loadPlot().then(fill, (error) => show(error));
    try {
      box.replaceChildren(draw());
    } catch (error) {
      show(error);
    }
    box.style.minHeight = ""; // kept until the figure is in (Plot may load first)
    drawn.add(key);
  };
  const show = (error) => {
    console.error(error);
    const message = document.createElement("div");
    message.className = "observablehq--error";
    message.textContent = `${error?.name ?? "Error"}: ${error?.message ?? error}`;
    box.replaceChildren(message);
  };
  // A figure the reader has already reached is redrawn at once (a slider, a new width).
  if (drawn.has(key)) return fill(), box;
  box.style.minHeight = `${height}px`;
  const io = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    io.disconnect();
    fill();
  }, { rootMargin: AHEAD });
  io.observe(box);
  return box;
}

/** The figures drawn once on this page (by their code). */
const drawn = new Set();
