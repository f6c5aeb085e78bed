import { loadGraders, loadMutants } from "../exercises/harness/discover.js";
const gs = await loadGraders();
for (const g of gs) {
  const e: any = g.exercise;
  const pts = e.checks.reduce((s: number, c: any) => s + c.points, 0);
  const m = Object.keys(await loadMutants(g.graderFile)).length;
  console.log([e.id, e.chapter, e.build ? "build" : (e.kind ?? "-"), pts, m, JSON.stringify(e.uses ?? []), JSON.stringify(e.solution ?? []), e.title].join("\t"));
}
