// The contrast audit the e2e run makes in each page, light and dark (issue 14,
// "Learn": dark mode follows the system setting and stays readable). It runs
// in the browser (page.evaluate): self-contained, no imports.
//
// - Text (WCAG 2.1 AA 1.4.3): every visible element with its own text, and every
//   text box with a value, against the colour behind it: 4.5:1, 3:1 for large
//   text (24 px, or 18.66 px bold).
//   Generated labels (::before and ::after with text, e.g. the label of a
//   correction box) count as text of their element.
// - Figures' text (SVG <text>, e.g. Plot's axis labels): its fill against what
//   is behind it: its own halo when it has one (a stroke around the letters),
//   else the topmost filled rectangle of the figure drawn before it under its
//   centre (a label on a bar or a cell), else the page: 4.5:1 (3:1 large).
// - Figures' marks (WCAG 2.1 1.4.11, non-text contrast): every opaque line,
//   rule, tick, dot and shape of a Plot figure against what is behind it: the
//   topmost filled rectangle drawn before it that holds it whole (an outline
//   on a cell), else the page (always for a rule or a tick: it crosses the
//   marks): 3:1. Marks drawn at less than half opacity (bands, shading)
//   carry no meaning alone and are left out.
// Colours are resolved by the browser itself (a 1 × 1 canvas paints any CSS
// colour, color-mix() and currentColor included, as sRGB bytes); the colour
// behind an element is its own background over its ancestors', opacity
// included; an ancestor with a background image makes the element unjudged.

/** Runs in the page; returns [{kind, ratio, need, fg, bg, text, where}] for every failure (at most `limit` per kind). */
export function contrastAudit(limit = 200) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const memo = new Map();
  const rgba = (css) => {
    if (memo.has(css)) return memo.get(css);
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = "rgba(0, 0, 0, 0)";
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    const c = [d[0], d[1], d[2], d[3] / 255];
    memo.set(css, c);
    return c;
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
  const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  const root = (() => {
    for (const e of [document.body, document.documentElement]) { const c = rgba(getComputedStyle(e).backgroundColor); if (c[3] >= 0.999) return c; }
    return matchMedia("(prefers-color-scheme: dark)").matches ? [0, 0, 0, 1] : [255, 255, 255, 1];
  })();
  /** The opaque colour behind `el` (its own background over its ancestors'), or null behind an image. */
  const behind = (el) => {
    const layers = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage && s.backgroundImage !== "none") return null;
      const c = rgba(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 0.999) break;
    }
    let bg = root;
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const opacity = (el) => { let o = 1; for (let e = el; e && e.nodeType === 1; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const where = (el) => {
    const h = [...document.querySelectorAll("h1, h2, h3")].filter((x) => x.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
    return h ? `after "${h.textContent.trim().slice(0, 50)}"` : "";
  };
  const large = (s) => parseFloat(s.fontSize) >= 24 || (parseFloat(s.fontSize) >= 18.66 && Number(s.fontWeight) >= 700);
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility === "visible"; };
  const out = [];
  const counts = {};
  const seen = new Set();
  const report = (kind, el, fg, bg, need, text) => {
    const r = ratio(fg, bg);
    if (r >= need - 0.005) return;
    const key = `${kind}|${hex(fg)}|${hex(bg)}`;
    counts[key] = (counts[key] ?? 0) + 1;
    if (seen.has(key)) return;
    seen.add(key);
    if (out.filter((o) => o.kind === kind).length < limit) out.push({ kind, ratio: Math.round(r * 100) / 100, need, fg: hex(fg), bg: hex(bg), text: text.slice(0, 40), where: where(el), key });
  };

  // Text of HTML elements, and their generated labels.
  for (const el of document.body.querySelectorAll("*")) {
    if (el instanceof SVGElement || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION"].includes(el.tagName)) continue;
    if (el.closest(":disabled, [disabled]")) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    const value = el.matches?.('input:not([type="range"]):not([type="checkbox"]):not([type="radio"]):not([type="color"]), textarea') ? el.value : "";
    const texts = [];
    if (own || value) texts.push([getComputedStyle(el), own || value]);
    for (const pseudo of ["::before", "::after"]) {
      const ps = getComputedStyle(el, pseudo);
      const content = ps.content;
      if (content && content !== "none" && content !== "normal" && /[\p{L}\p{N}]/u.test(content.replace(/^"|"$/g, "")) && ps.display !== "none" && ps.visibility === "visible") texts.push([ps, `${pseudo} ${content.replace(/^"|"$/g, "")}`]);
    }
    if (!texts.length || !visible(el)) continue;
    const bg = behind(el);
    if (!bg) continue;
    for (const [s, text] of texts) {
      const c = rgba(s.color);
      const fg = over([c[0], c[1], c[2], c[3] * opacity(el)], bg);
      report("text", el, fg, bg, large(s) ? 3 : 4.5, text);
    }
  }

  // Figures: SVG text, and the marks of Plot figures.
  for (const svg of document.querySelectorAll("#observablehq-main svg")) {
    if (svg.parentElement?.closest("svg") || !visible(svg)) continue;
    const page = behind(svg.parentElement);
    if (!page) continue;
    const plot = [...svg.classList].some((c) => /^plot(-|$)/.test(c));
    const shapes = [...svg.querySelectorAll("path, line, circle, ellipse, rect, polyline, polygon, text, tspan")];
    // Filled rectangles, in paint order, with their boxes: what a later label or mark may sit on.
    const fills = [];
    // Text: the rectangle under its centre (a label may overflow its bar a little). A mark: the
    // rectangle that holds it whole (an outline on a cell); a line across the figure is on the page.
    const behindInFigure = (el, whole) => {
      const b = el.getBoundingClientRect();
      const x = b.left + b.width / 2, y = b.top + b.height / 2;
      for (let i = fills.length - 1; i >= 0; i--) {
        const f = fills[i].box;
        const inside = whole ? b.left >= f.left - 0.5 && b.right <= f.right + 0.5 && b.top >= f.top - 0.5 && b.bottom <= f.bottom + 0.5 : x >= f.left && x <= f.right && y >= f.top && y <= f.bottom;
        if (fills[i].el !== el && inside) return over(fills[i].colour, page);
      }
      return page;
    };
    for (const el of shapes) {
      if (el.closest("defs, clipPath, mask, marker, pattern")) continue;
      const s = getComputedStyle(el);
      if (s.display === "none" || s.visibility !== "visible") continue;
      const o = opacity(el);
      if (el.tagName === "text" || el.tagName === "tspan") {
        if (el.tagName === "text" && !el.textContent.trim()) continue;
        if (el.tagName === "tspan" && el.closest("text") !== el.parentElement) continue;
        if (el.tagName === "text" && el.querySelector("tspan")) continue; // judged per line
        const halo = s.stroke !== "none" && parseFloat(s.strokeWidth) >= 2 ? rgba(s.stroke) : null;
        const under = behindInFigure(el, false);
        const bg = halo && halo[3] * Number(s.strokeOpacity) >= 0.5 ? over([halo[0], halo[1], halo[2], halo[3] * Number(s.strokeOpacity)], under) : under;
        const c = rgba(s.fill);
        report("figure text", el, over([c[0], c[1], c[2], c[3] * Number(s.fillOpacity) * o], bg), bg, large(s) ? 3 : 4.5, el.textContent.trim());
      } else if (plot && !el.closest("text")) {
        const under = el.tagName === "line" ? page : behindInFigure(el, true); // a rule or a tick crosses marks: judged on the page
        if (el.tagName === "rect" && s.fill !== "none" && !s.fill.startsWith("url(")) {
          const f = rgba(s.fill);
          const a = f[3] * Number(s.fillOpacity) * o;
          if (a > 0) fills.push({ el, box: el.getBoundingClientRect(), colour: [f[0], f[1], f[2], a] });
        }
        const stroked = s.stroke !== "none" && parseFloat(s.strokeWidth) > 0;
        const paint = stroked ? s.stroke : s.fill;
        if (!paint || paint === "none" || paint.startsWith("url(")) continue;
        const c = rgba(paint);
        const a = c[3] * Number(stroked ? s.strokeOpacity : s.fillOpacity) * o;
        if (a < 0.5) continue;
        const label = el.closest("[aria-label]")?.getAttribute("aria-label") ?? el.tagName;
        report("figure mark", el, over([c[0], c[1], c[2], a], under), under, 3, `${label} (${svg.getAttribute("aria-label") ?? "figure"})`);
      }
    }
  }
  return out.map(({ key, ...o }) => ({ ...o, count: counts[key] }));
}
