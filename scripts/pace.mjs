// Cells that give the browser a turn (issue 9). Framework's runtime runs every cell whose
// inputs are ready in one task: on a chapter page, 40–80 cells (inputs, tables, inline numbers,
// exercise boxes) built in one go, 100–300 ms on a phone, during which the page answers no tap
// and Lighthouse counts all of it as blocking time. `pace` wraps Framework's `define` so that a
// cell's body first yields to the browser when the current task has already run `budget` ms:
// the same cells, in the same order, in tasks of a few milliseconds each. The post-build step
// (scripts/postbuild.mjs) inlines it into every built page, where the page imports `define`.
//
// The browser's turn is `scheduler.yield()` where there is one (Chromium 129+: the page's work
// resumes before other queued tasks), else a MessageChannel message (a task with no 4 ms clamp,
// unlike setTimeout). A body keeps its `this` (the cell's previous value) and its inputs; a
// generator body is returned as it is (the runtime takes a promise of a generator as a
// generator). `now` and `turn` are parameters only for the tests.

/**
 * Wraps Framework's `define(cell)` so that each cell's body runs after a turn of the browser
 * once the current task has run `budget` ms (default 4 ms: 16 ms on a phone 4× slower, a
 * third of a long task's 50 ms).
 * @param {(cell: {body: Function}) => void} define Framework's define (client.js)
 * @param {{budget?: number, now?: () => number, turn?: () => Promise<void>}} [options]
 * @returns {(cell: {body: Function}) => void}
 */
export function pace(define, { budget = 4, now = () => performance.now(), turn } = {}) {
  turn ??= browserTurn;
  let start = now();
  return (cell) => define({ ...cell, body: async function (...inputs) {
    if (now() - start > budget) {
      await turn();
      start = now();
    }
    return cell.body.apply(this, inputs);
  } });
  function browserTurn() {
    if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
    return new Promise((resolve) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => (port1.close(), resolve());
      port2.postMessage(null);
    });
  }
}

/** The import of `define` in a built page, and what the post-build step puts in its place. */
const DEFINE_IMPORT = /import \{define\} from ("[^"]*\/_observablehq\/client\.[0-9a-f]+\.js");/;

/**
 * `html` (a built page) with its cells paced: `define` imported as `defineNow` and wrapped by
 * `pace`, inlined (no extra request). A page without cells, or already paced, is returned as it is.
 * @param {string} html
 */
export function paceCells(html) {
  return html.replace(DEFINE_IMPORT, (_, from) => `import {define as defineNow} from ${from};\nconst define = (${pace})(defineNow); // scripts/pace.mjs (issue 9): cells in short tasks`);
}
