// What a page's open costs on the main thread, by cell and by function: the tool behind
// issue 9's work on Lighthouse's total blocking time.
//   node scripts/profile.mjs <page> [--dist=dist] [--cpu=4] [--top=25] [--tasks=3]  (--tasks: how many of the longest tasks to break down)
// Build with COURSE_BUNDLE_NAMES=1 npm run build to see the lib functions under their own names.
// Opens the built page in Chromium at 390 px with the CPU slowed down as Lighthouse's mobile
// run slows it (4×), records a sampling CPU profile from navigation until the page has been
// quiet for 2 s, and prints the long tasks (> 50 ms, what total blocking time adds up) and
// the functions with the most self time, with their file (bundles are named after pages).
import { join } from "node:path";
import { serve, launch } from "./browser.mjs";
import { baseOf } from "./postbuild.mjs";

const arg = (name, d) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const page = process.argv[2] && !process.argv[2].startsWith("--") ? process.argv[2] : "";
const dist = arg("dist", "dist");
const cpu = Number(arg("cpu", "4"));
const top = Number(arg("top", "25"));

const server = await serve(dist, { base: baseOf(dist) });
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p = await context.newPage();
  const cdp = await context.newCDPSession(p);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
  await p.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: "longtask", buffered: true });
  });
  await browser.startTracing(p, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.stack"] });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  await p.goto(new URL(page, server.url).href, { waitUntil: "load" });
  let quietSince = Date.now(), seen = 0;
  while (Date.now() - quietSince < 2000) {
    await p.waitForTimeout(250);
    const n = await p.evaluate(() => window.__long.length);
    if (n !== seen) (seen = n), (quietSince = Date.now());
  }
  const { profile } = await cdp.send("Profiler.stop");
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
  // Self time by trace event name (Layout, UpdateLayoutTree = style, ParseHTML, FunctionCall…) inside tasks over 50 ms.
  const events = trace.traceEvents ?? trace;
  const mains = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`);
  const onMain = events.filter((e) => e.ph === "X" && mains.includes(`${e.pid}:${e.tid}`) && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const selfByName = new Map();
  let longTasks = 0;
  for (const task of onMain.filter((e) => e.name === "RunTask" && e.dur > 50_000)) {
    longTasks++;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    const stack = [];
    const self = new Map(inside.map((e) => [e, e.dur]));
    for (const e of inside) {
      while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
      if (stack.length) self.set(stack.at(-1), self.get(stack.at(-1)) - e.dur);
      stack.push(e);
    }
    let childTotal = 0;
    for (const [e, t] of self) { selfByName.set(e.name, (selfByName.get(e.name) ?? 0) + t / 1000); }
    for (const e of inside) if (!inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur)) childTotal += e.dur;
    selfByName.set("(task, outside any event)", (selfByName.get("(task, outside any event)") ?? 0) + (task.dur - childTotal) / 1000);
  }
  // Layouts: how many, how long, and which script forced each one (a layout read while the page was being changed).
  const layouts = onMain.filter((e) => e.name === "Layout");
  const forced = new Map();
  for (const l of layouts) {
    const st = l.args?.beginData?.stackTrace?.[0];
    const key = st ? `${st.functionName || "(anonymous)"} ${st.url.replace(/^https?:\/\/[^/]+/, "").replace(/\.[0-9a-f]{8}\.js$/, ".js")}:${st.lineNumber}` : "(not forced by script)";
    const f = forced.get(key) ?? { n: 0, ms: 0 };
    f.n++, (f.ms += l.dur / 1000), forced.set(key, f);
  }
  console.log(`  each layout (ms, objects dirty/total): ${layouts.map((l) => `${(l.dur / 1000).toFixed(0)} ${l.args?.beginData?.dirtyObjects}/${l.args?.beginData?.totalObjects}`).join(", ")}`);
  console.log(`  layouts: ${layouts.length}, ${(layouts.reduce((s, l) => s + l.dur, 0) / 1000).toFixed(0)} ms; by cause: ${[...forced].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8).map(([k, f]) => `${k} ×${f.n} ${f.ms.toFixed(0)} ms`).join("; ")}`);
  // The longest tasks one by one: what kind of work, and which functions (CPU profile samples in the task's window).
  const sampleTimes = []; { let t = profile.startTime; for (const d of profile.timeDeltas) sampleTimes.push((t += d)); }
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const biggest = onMain.filter((e) => e.name === "RunTask" && e.dur > 50_000).sort((a, b) => b.dur - a.dur).slice(0, Number(arg("tasks", "3")));
  for (const task of biggest) {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    const kinds = new Map();
    for (const e of inside) if (!inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur)) kinds.set(e.name, (kinds.get(e.name) ?? 0) + e.dur / 1000);
    const fns = new Map();
    profile.samples.forEach((id, i) => {
      if (sampleTimes[i] < task.ts || sampleTimes[i] > task.ts + task.dur) return;
      // attribute the sample to the deepest frame from the page or its bundles, else to the leaf
      let n = nodeById.get(id), leaf = n.callFrame.functionName || n.callFrame.url.split("/").pop() || "(native)";
      const f = n.callFrame; const file = f.url.replace(/^https?:\/\/[^/]+/, "").replace(/\.[0-9a-f]{8}\.js$/, ".js");
      const key = `${leaf}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
      fns.set(key, (fns.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
    });
    // Inclusive time of the page's own cells (functions defined in the page: the built HTML's line).
    const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const cells = new Map();
    profile.samples.forEach((id, i) => {
      if (sampleTimes[i] < task.ts || sampleTimes[i] > task.ts + task.dur) return;
      const seen = new Set();
      for (let n = nodeById.get(id); n; n = nodeById.get(parent.get(n.id))) {
        const f = n.callFrame;
        if (!f.url || !new URL(f.url).pathname.endsWith(`/${page}`) && !(page === "" && new URL(f.url).pathname.endsWith("/"))) continue;
        const key = `line ${f.lineNumber + 1}`;
        if (seen.has(key)) continue;
        seen.add(key), cells.set(key, (cells.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
      }
    });
    const cellText = [...cells].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, t]) => `${k} ${t.toFixed(0)}`).join("; ");
    console.log(`  task at ${((task.ts - onMain[0].ts) / 1000).toFixed(0)} ms, ${(task.dur / 1000).toFixed(0)} ms: ${[...kinds].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, t]) => `${k} ${t.toFixed(0)}`).join(", ")}`);
    if (cellText) console.log(`    the page's cells (inclusive, by line of the built page): ${cellText}`);
    console.log(`    functions: ${[...fns].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, t]) => `${k} ${t.toFixed(0)}`).join("; ")}`);
  }
  console.log(`  inside the ${longTasks} tasks over 50 ms, self time by kind (ms): ${[...selfByName].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([n, t]) => `${n} ${t.toFixed(0)}`).join(", ")}`);
  const long = await p.evaluate(() => window.__long);
  const fcp = await p.evaluate(() => Math.round(performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN));
  const blocking = long.reduce((s, [, d]) => s + Math.max(0, d - 50), 0);
  console.log(`/${page} at 390 px, CPU ${cpu}× slower: ${long.length} long tasks, ${blocking} ms over 50 ms (in all; Lighthouse counts those before interactive)`);
  console.log(`  first contentful paint at ${fcp} ms; long tasks (start ms, duration ms):`, long.map(([s, d]) => `${s}:${d}`).join(" "));
  // Self time per function: samples × interval, by node.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    const f = n.callFrame;
    const file = f.url.replace(/^https?:\/\/[^/]+/, "").replace(/\.[0-9a-f]{8}\.js$/, ".js");
    const key = `${f.functionName || "(anonymous)"}  ${file}${f.url ? `:${f.lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i + 1] ?? 0) / 1000);
  });
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`  self time (ms, with the ${cpu}× slowdown):`);
  for (const [k, ms] of rows) console.log(`  ${ms.toFixed(0).padStart(6)}  ${k}`);
} finally {
  await browser.close();
  await server.close();
}
