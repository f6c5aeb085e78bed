// Plot, loaded when a page draws its first figure (issue 9). Evaluating Plot's bundle (Plot and
// the d3 modules it uses) was one task of 100–160 ms at Lighthouse's 4× slowdown on every page's
// open, before any figure was near the screen. A page imports `{Plot}` from here and uses it as
// the module: `Plot.plot({…})`, `Plot.lineY(…)`. lazyFigure (./lazy.js) awaits `loadPlot()`
// before it draws; a cell that draws outside lazyFigure first does `await loadPlot()`.

let plot = null; // Plot's module, once loaded
let loading = null;

/** Loads Plot's bundle (once); resolves to the module. */
export function loadPlot() {
  return (loading ??= import("../bundles/plot.js").then((m) => (plot = m)));
}

/** Whether Plot has loaded (a figure can be drawn now). */
export function plotLoaded() {
  return plot !== null;
}

/**
 * Plot's module, once loaded. Before that, reading a member gives a function that throws an
 * error saying what to do; `then`, `next`, `return`, `throw` and symbols read as undefined
 * (the Observable runtime reads them on a cell's value to tell promises and generators apart).
 */
export const Plot = new Proxy(Object.create(null), {
  get(_, name) {
    if (plot) return plot[name];
    if (typeof name === "symbol" || ["then", "next", "return", "throw"].includes(name)) return undefined;
    return () => {
      throw new Error(`Plot.${name} used before Plot has loaded: draw figures with lazyFigure (src/components/lazy.js), or await loadPlot() first`);
    };
  },
  has(_, name) {
    return plot ? name in plot : false;
  },
  ownKeys() {
    return plot ? Reflect.ownKeys(plot) : [];
  },
  getOwnPropertyDescriptor(_, name) {
    const d = plot ? Object.getOwnPropertyDescriptor(plot, name) : undefined;
    return d && { ...d, configurable: true }; // a proxy may not report a module's (fixed) member as fixed
  }
});
