// Draws a drawable view (docs/view.md) as SVG: the table to scale with a 1" grid, deployment zones, terrain by
// kind and height, objectives, coherency links and every model at its base size with facing and badges.
// It knows no game: everything comes from the view.

const NS = "http://www.w3.org/2000/svg";
const TERRAIN = {
  difficult: "#9ccc65", dangerous: "#ff8a65", impassable: "#616161", obstacle: "#a1887f",
  blocking: "#455a64", platform: "#bcaaa4", open: "#e0e0e0",
};

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  constructor(svg, tip) {
    this.svg = svg;
    this.tip = tip;
    this.scale = 14;
    this.view = null;
    this.onModel = () => {};
    this.onPoint = () => {};
    this.selected = null;
    svg.addEventListener("click", (ev) => this.clicked(ev));
  }

  // table inches -> screen pixels (y grows up the table, down the screen)
  sx(x) { return x * this.scale; }
  sy(y) { return (this.view.table.depth - y) * this.scale; }

  toTable(ev) {
    const r = this.svg.getBoundingClientRect();
    const x = (ev.clientX - r.left) / this.scale;
    const y = this.view.table.depth - (ev.clientY - r.top) / this.scale;
    return [Math.round(x * 100) / 100, Math.round(y * 100) / 100];
  }

  clicked(ev) {
    if (!this.view) return;
    const model = ev.target.closest("[data-model]");
    if (model) { this.onModel(model.dataset.model, ev); return; }
    if (ev.target.closest(".spot")) return;
    this.onPoint(this.toTable(ev), ev);
  }

  draw(view, extras = {}) {
    this.view = view;
    const t = view.table;
    this.scale = Math.max(6, Math.min(900 / t.width, 700 / t.depth));
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute("width", this.sx(t.width));
    svg.setAttribute("height", t.depth * this.scale);
    svg.setAttribute("data-testid", "board");
    el("rect", { x: 0, y: 0, width: this.sx(t.width), height: t.depth * this.scale, fill: "#f3efe2" }, svg);
    this.grid(t);
    for (const z of view.zones) this.polygon(z.polygon, { fill: view.sides[z.side]?.colour || "#888", "fill-opacity": 0.08 });
    for (const p of view.terrain) this.terrain(p);
    for (const o of view.objectives) this.objective(o, view);
    for (const l of view.links) this.link(l);
    for (const m of view.models) this.model(m);
    for (const s of extras.spots || []) this.spot(s, extras.onSpot);
    if (extras.line) this.line(extras.line);
  }

  grid(t) {
    const g = el("g", { stroke: "#d8d2bf" }, this.svg);
    for (let x = 0; x <= t.width; x += t.grid) {
      el("line", { x1: this.sx(x), y1: 0, x2: this.sx(x), y2: t.depth * this.scale, "stroke-width": x % 6 ? 0.5 : 1.2 }, g);
    }
    for (let y = 0; y <= t.depth; y += t.grid) {
      el("line", { x1: 0, y1: this.sy(y), x2: this.sx(t.width), y2: this.sy(y), "stroke-width": y % 6 ? 0.5 : 1.2 }, g);
    }
  }

  polygon(points, attrs) {
    const pts = points.map(([x, y]) => `${this.sx(x)},${this.sy(y)}`).join(" ");
    return el("polygon", { points: pts, ...attrs }, this.svg);
  }

  terrain(p) {
    const opacity = Math.min(0.85, 0.35 + 0.1 * p.height);
    const poly = this.polygon(p.polygon, {
      fill: TERRAIN[p.kind] || "#bdbdbd", "fill-opacity": opacity, stroke: "#555", "stroke-width": 1,
      "data-testid": `terrain-${p.id}`,
    });
    el("title", {}, poly).textContent = p.label;
    const [cx, cy] = centroid(p.polygon);
    const label = el("text", { x: this.sx(cx), y: this.sy(cy), "font-size": 10, "text-anchor": "middle", fill: "#333" }, this.svg);
    label.textContent = `${p.kind}${p.height ? " " + p.height + '"' : ""}`;
  }

  objective(o, view) {
    const colour = o.owner === null || o.owner === undefined ? "#6d4c41" : view.sides[o.owner].colour;
    el("circle", { cx: this.sx(o.at[0]), cy: this.sy(o.at[1]), r: o.radius * this.scale, fill: "none",
      stroke: colour, "stroke-dasharray": "4 3" }, this.svg);
    const mark = el("circle", { cx: this.sx(o.at[0]), cy: this.sy(o.at[1]), r: 5, fill: colour, "data-testid": `objective-${o.id}` }, this.svg);
    el("title", {}, mark).textContent = o.label;
  }

  link(l) {
    el("line", { x1: this.sx(l.from[0]), y1: this.sy(l.from[1]), x2: this.sx(l.to[0]), y2: this.sy(l.to[1]),
      stroke: l.ok ? "#66bb6a" : "#e53935", "stroke-width": l.ok ? 1 : 2, "stroke-dasharray": l.ok ? "2 2" : "" }, this.svg);
  }

  model(m) {
    const chosen = this.selected !== null && (this.selected === m.id || this.selected === m.unit);
    const g = el("g", { class: "model" + (chosen ? " selected" : ""), "data-model": m.id, "data-unit": m.unit || "", "data-testid": `model-${m.id}` }, this.svg);
    const cx = this.sx(m.x), cy = this.sy(m.y), r = Math.max(3, m.radius * this.scale);
    el("circle", { class: "base", cx, cy, r, fill: m.colour, "fill-opacity": m.down ? 0.45 : 0.9, stroke: "#111", "stroke-width": 1 }, g);
    if (m.facing !== null && m.facing !== undefined) {
      const a = (m.facing * Math.PI) / 180;
      el("line", { x1: cx, y1: cy, x2: cx + Math.cos(a) * r, y2: cy - Math.sin(a) * r, stroke: "#fff", "stroke-width": 2 }, g);
    }
    const label = el("text", { x: cx, y: cy + 3, "font-size": Math.max(8, Math.min(11, r)), "text-anchor": "middle", fill: "#fff" }, g);
    label.textContent = m.id;
    m.badges.slice(0, 3).forEach((b, i) => {
      const bx = cx + r + 1, by = cy - r + i * 9;
      el("rect", { x: bx, y: by - 7, width: 6 + b.text.length * 5, height: 9, rx: 2, class: `badge-${b.kind}` }, g);
      const text = el("text", { x: bx + 3, y: by, "font-size": 8, fill: "#fff" }, g);
      text.textContent = b.text;
    });
    g.addEventListener("mouseenter", (ev) => this.showTip(m, ev));
    g.addEventListener("mouseleave", () => { this.tip.style.display = "none"; });
  }

  showTip(m, ev) {
    const rows = m.tooltip.map(([k, v]) => `${k}: ${v}`);
    rows.push(`at (${m.x.toFixed(1)}, ${m.y.toFixed(1)}, z ${m.z})`);
    if (m.badges.length) rows.push("status: " + m.badges.map((b) => b.text).join(", "));
    this.tip.textContent = rows.join("\n");
    this.tip.style.whiteSpace = "pre-wrap";
    this.tip.style.left = ev.clientX + 14 + "px";
    this.tip.style.top = ev.clientY + 10 + "px";
    this.tip.style.display = "block";
  }

  spot(s, onSpot) {
    const c = el("circle", { class: "spot", cx: this.sx(s.point[0]), cy: this.sy(s.point[1]), r: 5, "data-testid": `spot-${s.i}` }, this.svg);
    el("title", {}, c).textContent = s.text;
    c.addEventListener("click", (ev) => { ev.stopPropagation(); onSpot(s); });
  }

  line(l) {
    el("line", { x1: this.sx(l.a[0]), y1: this.sy(l.a[1]), x2: this.sx(l.b[0]), y2: this.sy(l.b[1]),
      stroke: l.clear ? "#1565c0" : "#c62828", "stroke-width": 2 }, this.svg);
  }
}

function centroid(points) {
  const n = points.length;
  return [points.reduce((s, p) => s + p[0], 0) / n, points.reduce((s, p) => s + p[1], 0) / n];
}
