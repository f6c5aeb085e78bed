// scripts/pace.mjs: the cells of a built page run in short tasks (issue 9). The wrapper is
// checked here with a fake clock and a fake turn of the browser; the e2e run checks every
// built page live (its cells render, none errors) and check-build that every page is paced.
import { describe, it, expect } from "vitest";
// @ts-expect-error: a plain ES module without types
import { pace, paceCells } from "../scripts/pace.mjs";

type Cell = { id: string; body: (...inputs: unknown[]) => unknown };

/** A fake Framework: define() keeps the cells; run(id, this, ...inputs) calls a body as the runtime does. */
function fakeFramework() {
  const cells = new Map<string, Cell>();
  return { define: (c: Cell) => void cells.set(c.id, c), run: (id: string, self: unknown, ...inputs: unknown[]) => cells.get(id)!.body.apply(self, inputs) };
}

describe("pace(define): a cell's body yields to the browser once the task has run its budget", () => {
  it("runs bodies with their inputs and `this` (the previous value), and resolves to their value", async () => {
    const f = fakeFramework();
    const define = pace(f.define, { now: () => 0, turn: async () => {} });
    define({ id: "a", body(this: unknown, x: number, y: number) { return [this, x + y]; } });
    await expect(f.run("a", "previous", 2, 3)).resolves.toEqual(["previous", 5]);
  });

  it("yields only when more than `budget` ms have passed since the task began, and counts from the turn", async () => {
    let t = 0, turns = 0;
    const f = fakeFramework();
    const define = pace(f.define, { budget: 4, now: () => t, turn: async () => { turns++; } });
    for (const id of ["a", "b", "c"]) define({ id, body: () => id });
    t = 3; await f.run("a", undefined);
    expect(turns).toBe(0); // 3 ms ≤ 4 ms: same task
    t = 5; await f.run("b", undefined);
    expect(turns).toBe(1); // 5 ms > 4 ms: a turn, and the clock starts again at 5
    t = 8; await f.run("c", undefined);
    expect(turns).toBe(1); // 3 ms since the turn
    t = 10; await f.run("c", undefined);
    expect(turns).toBe(2);
  });

  it("runs the body after the turn, not before", async () => {
    const order: string[] = [];
    let t = 100;
    const f = fakeFramework();
    const define = pace(f.define, { now: () => t, turn: async () => { order.push("turn"); t = 0; } });
    define({ id: "a", body: () => order.push("body") });
    t = 200;
    await f.run("a", undefined);
    expect(order).toEqual(["turn", "body"]);
  });

  it("passes a generator through (the runtime takes a promise of a generator as a generator) and a thrown error as a rejection", async () => {
    const f = fakeFramework();
    const define = pace(f.define, { now: () => 0, turn: async () => {} });
    define({ id: "g", *body() { yield 1; yield 2; } });
    define({ id: "e", body: () => { throw new RangeError("seqLen must be ≥ 1"); } });
    const g = (await f.run("g", undefined)) as Generator<number>;
    expect([...g]).toEqual([1, 2]);
    await expect(f.run("e", undefined)).rejects.toThrow(RangeError);
  });

  it("keeps the cell's other fields (id, inputs, outputs)", () => {
    const seen: Record<string, unknown>[] = [];
    pace((c: Record<string, unknown>) => seen.push(c))({ id: "x", inputs: ["a"], outputs: ["b"], body: () => 1 });
    expect(seen[0]).toMatchObject({ id: "x", inputs: ["a"], outputs: ["b"] });
  });

  it("with the browser's own turn (a MessageChannel message in Node), the body runs in a later task, not in this task's microtasks", async () => {
    let t = 0, ran = false;
    const f = fakeFramework();
    const define = pace(f.define, { now: () => t }); // the default turn
    define({ id: "a", body: () => (ran = true) });
    t = 50;
    const done = f.run("a", undefined) as Promise<boolean>;
    for (let i = 0; i < 20; i++) await Promise.resolve(); // this task's microtasks
    expect(ran).toBe(false);
    await expect(done).resolves.toBe(true);
  });
});

describe("paceCells(html): the post-build step's edit of a built page", () => {
  const page = `<script type="module">\nimport {define} from "./_observablehq/client.d10d8454.js";\nimport {registerFile} from "./_observablehq/stdlib.5532b554.js";\ndefine({id: "1", inputs: [], outputs: [], body: () => 42});\n</script>`;
  const paced: string = paceCells(page);

  it("imports define as defineNow and wraps it with pace, inlined (no extra request)", () => {
    expect(paced).toContain('import {define as defineNow} from "./_observablehq/client.d10d8454.js";');
    expect(paced).toMatch(/const define = \(function pace\(define[\s\S]*\)\(defineNow\);/);
    expect(paced).not.toMatch(/import \{define\} from/);
  });

  it("is idempotent, and leaves a page without cells as it is", () => {
    expect(paceCells(paced)).toBe(paced);
    const noCells = "<html><body><p>no cells</p></body></html>";
    expect(paceCells(noCells)).toBe(noCells);
  });

  it("the inlined code runs: the page's define calls Framework's with a paced body", async () => {
    const script = paced.replace(/^[\s\S]*?(const define = [\s\S]*?\(defineNow\);)[\s\S]*$/, "$1");
    const seen: Cell[] = [];
    const define = new Function("defineNow", `${script}; return define;`)((c: Cell) => seen.push(c));
    define({ id: "1", body: () => 42 });
    await expect(seen[0].body()).resolves.toBe(42);
  });
});
