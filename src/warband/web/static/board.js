// Draws a drawable view (docs/view.md) as SVG: the table to scale with a 1" grid, deployment zones with their
// labels, terrain by kind and height, objectives with their holder, coherency links and every model at its base
// size with facing and badges. It knows no game: everything comes from the view.
//
// The drawing is in table units (U per inch) inside a viewBox, so the board fills its box at any screen width;
// zoom (wheel, pinch, the +/- buttons) and pan (drag) change the viewBox, and labels, badges and candidate spots
// are redrawn at a fixed size on screen, so they stay legible at any zoom.

const NS = "http://www.w3.org/2000/svg";
const U = 10; // drawing units per table inch
const TERRAIN = {
  difficult: "#9ccc65", dangerous: "#ff8a65", impassable: "#616161", obstacle: "#a1887f",
  blocking: "#455a64", platform: "#bcaaa4", open: "#e0e0e0",
};
const MIN_ZOOM = 1, MAX_ZOOM = 24;
const BADGES_FROM = 26; // screen pixels per inch from which badges are written out beside the models

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
    this.view = null;
    this.extras = {};
    this.onModel = () => {};
    this.onPoint = () => {};
    this.selected = null;
    this.zoom = 1;
    this.centre = null; // [x, y] in drawing units
    this.pointers = new Map();
    this.dragged = false;
    svg.setAttribute("data-testid", "board");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.addEventListener("click", (ev) => this.clicked(ev));
    svg.addEventListener("wheel", (ev) => { ev.preventDefault(); this.zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, ev); }, { passive: false });
    svg.addEventListener("pointerdown", (ev) => this.down(ev));
    svg.addEventListener("pointermove", (ev) => this.move(ev));
    for (const k of ["pointerup", "pointercancel", "pointerleave"]) svg.addEventListener(k, (ev) => this.up(ev));
    this.box = document.createElement("div");
    this.box.className = "boardwrap";
    const button = (text, title, testid, fn) => {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.title = title; b.dataset.testid = testid;
      b.addEventListener("click", (ev) => { ev.stopPropagation(); fn(); });
      return b;
    };
    const zoomBar = document.createElement("div");
    zoomBar.className = "zoombar";
    zoomBar.append(button("+", "zoom in", "zoom-in", () => this.zoomBy(1.5)),
      button("−", "zoom out", "zoom-out", () => this.zoomBy(1 / 1.5)),
      button("fit", "the whole table", "zoom-fit", () => { this.zoom = 1; this.centre = null; this.redraw(); }));
    const hint = document.createElement("span");
    hint.textContent = "wheel or pinch to zoom, drag to move";
    zoomBar.append(hint);
    this.box.append(zoomBar, svg);
  }

  // the element to put on the page (the board and its zoom buttons)
  get element() { return this.box; }

  // table inches -> drawing units (y grows up the table, down the screen)
  sx(x) { return x * U; }
  sy(y) { return (this.view.table.depth - y) * U; }

  // screen pixels per drawing unit, and a length of n screen pixels in drawing units
  ppu() { const w = this.svg.getBoundingClientRect().width || 800; return (w / (this.view.table.width * U)) * this.zoom; }
  px(n) { return n / this.ppu(); }

  viewBox() {
    const W = this.view.table.width * U, D = this.view.table.depth * U;
    const w = W / this.zoom, d = D / this.zoom;
    const [cx, cy] = this.centre || [W / 2, D / 2];
    const x = Math.max(0, Math.min(W - w, cx - w / 2)), y = Math.max(0, Math.min(D - d, cy - d / 2));
    this.centre = [x + w / 2, y + d / 2];
    return [x, y, w, d];
  }

  toUnits(ev) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  toTable(ev) {
    const [ux, uy] = this.toUnits(ev);
    const x = ux / U, y = this.view.table.depth - uy / U;
    return [Math.round(x * 100) / 100, Math.round(y * 100) / 100];
  }

  zoomBy(f) { this.setZoom(this.zoom * f, this.centre); }

  zoomAt(f, ev) {
    // keep the table point under the pointer where it is
    const [ux, uy] = this.toUnits(ev);
    const before = this.zoom;
    const z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, before * f));
    const [cx, cy] = this.centre || [ux, uy];
    this.setZoom(z, [ux + (cx - ux) * (before / z), uy + (cy - uy) * (before / z)]);
  }

  setZoom(z, centre) {
    this.zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z));
    this.centre = centre;
    this.redraw();
  }

  down(ev) {
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY, x0: ev.clientX, y0: ev.clientY });
    if (this.pointers.size === 1) this.dragged = false;
    if (this.pointers.size === 2) this.pinch = { d: this.spread(), zoom: this.zoom };
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  }

  move(ev) {
    const p = this.pointers.get(ev.pointerId);
    if (!p || !this.view) return;
    const dx = ev.clientX - p.x, dy = ev.clientY - p.y;
    p.x = ev.clientX; p.y = ev.clientY;
    if (this.pointers.size === 2 && this.pinch) {
      this.dragged = true;
      const z = this.pinch.zoom * (this.spread() / this.pinch.d);
      if (Math.abs(z - this.zoom) > 0.02) this.setZoom(z, this.centre);
      return;
    }
    if (Math.hypot(ev.clientX - p.x0, ev.clientY - p.y0) < 5 && !this.dragged) return;
    if (this.zoom <= 1) return;
    this.dragged = true;
    const k = this.ppu();
    this.centre = [this.centre[0] - dx / k, this.centre[1] - dy / k];
    this.svg.setAttribute("viewBox", this.viewBox().join(" "));
  }

  up(ev) {
    this.pointers.delete(ev.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  }

  clicked(ev) {
    if (!this.view) return;
    if (this.dragged) { this.dragged = false; return; } // the end of a drag is not a click
    const model = ev.target.closest("[data-model]");
    if (model) { this.onModel(model.dataset.model, ev); return; }
    if (ev.target.closest(".spot")) return;
    this.onPoint(this.toTable(ev), ev);
  }

  redraw() { if (this.view) this.draw(this.view, this.extras); }

  draw(view, extras = {}) {
    if (this.view && (this.view.table.width !== view.table.width || this.view.table.depth !== view.table.depth)) {
      this.zoom = 1; this.centre = null;
    }
    this.view = view;
    this.extras = extras;
    const t = view.table;
    const svg = this.svg;
    svg.replaceChildren();
    svg.style.aspectRatio = `${t.width} / ${t.depth}`;
    this.box.style.maxWidth = `calc((100vh - 90px) * ${t.width / t.depth})`;
    svg.setAttribute("viewBox", this.viewBox().join(" "));
    this.box.dataset.zoom = this.zoom.toFixed(2);
    el("rect", { x: 0, y: 0, width: this.sx(t.width), height: t.depth * U, fill: "#f3efe2" }, svg);
    this.grid(t);
    for (const z of view.zones) this.zone(z, view);
    for (const p of view.terrain) this.terrain(p);
    for (const o of view.objectives) this.objective(o, view);
    for (const l of view.links) this.link(l);
    const inch = this.ppu() * U;
    for (const m of view.models) this.model(m, inch >= BADGES_FROM);
    for (const s of extras.spots || []) this.spot(s, extras.onSpot);
    if (extras.line) this.line(extras.line);
  }

  text(x, y, str, size, attrs = {}, parent = this.svg) {
    const node = el("text", { x, y, "font-size": this.px(size), ...attrs }, parent);
    node.textContent = str;
    return node;
  }

  grid(t) {
    const g = el("g", { stroke: "#d8d2bf" }, this.svg);
    for (let x = 0; x <= t.width; x += t.grid) {
      el("line", { x1: this.sx(x), y1: 0, x2: this.sx(x), y2: t.depth * U, "stroke-width": this.px(x % 6 ? 0.5 : 1.2) }, g);
    }
    for (let y = 0; y <= t.depth; y += t.grid) {
      el("line", { x1: 0, y1: this.sy(y), x2: this.sx(t.width), y2: this.sy(y), "stroke-width": this.px(y % 6 ? 0.5 : 1.2) }, g);
    }
  }

  polygon(points, attrs) {
    const pts = points.map(([x, y]) => `${this.sx(x)},${this.sy(y)}`).join(" ");
    return el("polygon", { points: pts, ...attrs }, this.svg);
  }

  zone(z, view) {
    const colour = view.sides[z.side]?.colour || "#888";
    this.polygon(z.polygon, { fill: colour, "fill-opacity": 0.08, stroke: colour, "stroke-opacity": 0.4, "stroke-width": this.px(1) });
    if (!z.label) return;
    // along the zone's edge nearest the middle of the table, inside it, clear of the models at its back
    const [cx, cy] = centroid(z.polygon);
    const ys = z.polygon.map((p) => p[1]);
    const low = cy < this.view.table.depth / 2;
    const y = this.sy(low ? Math.max(...ys) : Math.min(...ys)) + (low ? this.px(14) : -this.px(6));
    // the longest wording that fits across the board as it is shown
    const room = this.view.table.width * U * this.ppu() / this.zoom - 16;
    const words = [z.label, z.label.replace(/ \(.*\)$/, ""), `side ${"AB"[z.side]}`];
    const label = words.find((w) => w.length * 7 <= room) || words[words.length - 1];
    this.text(this.sx(cx), y, label, 12, { "text-anchor": "middle", fill: colour, "fill-opacity": 0.8, "font-weight": "bold", "data-testid": `zone-label-${z.side}` });
  }

  terrain(p) {
    const opacity = Math.min(0.85, 0.35 + 0.1 * p.height);
    const poly = this.polygon(p.polygon, {
      fill: TERRAIN[p.kind] || "#bdbdbd", "fill-opacity": opacity, stroke: "#555", "stroke-width": this.px(1),
      "data-testid": `terrain-${p.id}`,
    });
    el("title", {}, poly).textContent = p.label;
    const [cx, cy] = centroid(p.polygon);
    this.text(this.sx(cx), this.sy(cy), `${p.kind}${p.height ? " " + p.height + '"' : ""}`, 10, { "text-anchor": "middle", fill: "#333" });
  }

  objective(o, view) {
    const held = o.owner !== null && o.owner !== undefined;
    const colour = held ? view.sides[o.owner].colour : "#6d4c41";
    const cx = this.sx(o.at[0]), cy = this.sy(o.at[1]);
    el("circle", { cx, cy, r: o.radius * U, fill: held ? colour : "none", "fill-opacity": 0.08, stroke: colour,
      "stroke-width": this.px(held ? 2 : 1), "stroke-dasharray": `${this.px(4)} ${this.px(3)}` }, this.svg);
    const mark = el("circle", { cx, cy, r: this.px(6), fill: colour, stroke: "#fff", "stroke-width": this.px(1.5),
      "data-testid": `objective-${o.id}`, "data-holder": o.holder || "" }, this.svg);
    el("title", {}, mark).textContent = o.label;
    const who = held ? `${o.id}: side ${"AB"[o.owner]}` : o.id;
    this.text(cx, cy - this.px(9), who, 11, { "text-anchor": "middle", fill: colour, "font-weight": "bold", "paint-order": "stroke", stroke: "#fff", "stroke-width": this.px(3) });
  }

  link(l) {
    el("line", { x1: this.sx(l.from[0]), y1: this.sy(l.from[1]), x2: this.sx(l.to[0]), y2: this.sy(l.to[1]),
      stroke: l.ok ? "#66bb6a" : "#e53935", "stroke-width": this.px(l.ok ? 1 : 2), "stroke-dasharray": l.ok ? `${this.px(2)} ${this.px(2)}` : "" }, this.svg);
  }

  model(m, badges) {
    const chosen = this.selected !== null && (this.selected === m.id || this.selected === m.unit);
    const g = el("g", { class: "model" + (chosen ? " selected" : ""), "data-model": m.id, "data-unit": m.unit || "", "data-testid": `model-${m.id}` }, this.svg);
    const cx = this.sx(m.x), cy = this.sy(m.y), r = Math.max(this.px(5), m.radius * U);
    el("circle", { class: "base", cx, cy, r, fill: m.colour, "fill-opacity": m.down ? 0.45 : 0.9, stroke: chosen ? "#ffb300" : "#111", "stroke-width": this.px(chosen ? 3 : 1) }, g);
    if (m.facing !== null && m.facing !== undefined) {
      const a = (m.facing * Math.PI) / 180;
      el("line", { x1: cx, y1: cy, x2: cx + Math.cos(a) * r, y2: cy - Math.sin(a) * r, stroke: "#fff", "stroke-width": this.px(2) }, g);
    }
    // the id is written when the base is big enough on screen to carry it (zoom in for the others; the tooltip
    // and the roster name every model)
    if (chosen || r * this.ppu() >= 7) this.text(cx, cy + this.px(4), m.id, 11, { "text-anchor": "middle", fill: "#fff", "paint-order": "stroke", stroke: "#111", "stroke-width": this.px(2) }, g);
    if (badges) this.badges(m, cx, cy, r, g);
    else if (m.badges.length) {
      // too small to write them out: a count in the corner; the tooltip, the roster and a zoom show them
      const bx = cx + r + this.px(4), by = cy - r;
      el("circle", { cx: bx, cy: by, r: this.px(5.5), class: `badge-${m.badges[0].kind}` }, g);
      this.text(bx, by + this.px(3), String(m.badges.length), 8, { "text-anchor": "middle", fill: "#fff" }, g);
    }
    g.addEventListener("mouseenter", (ev) => this.showTip(m, ev));
    g.addEventListener("mouseleave", () => { this.tip.style.display = "none"; });
  }

  badges(m, cx, cy, r, g) {
    // stacked beside the base; on the left when they would run off the right edge of the table
    const W = this.view.table.width * U;
    const h = this.px(11), pad = this.px(3), shown = m.badges.slice(0, 4);
    const widths = shown.map((b) => this.px(8 + b.text.length * 5.6));
    const widest = Math.max(0, ...widths);
    const left = cx + r + this.px(2) + widest > W;
    shown.forEach((b, i) => {
      const w = widths[i], by = cy - r + i * (h + this.px(1));
      const bx = left ? cx - r - this.px(2) - w : cx + r + this.px(2);
      el("rect", { x: bx, y: by, width: w, height: h, rx: this.px(2), class: `badge-${b.kind}` }, g);
      this.text(bx + pad, by + h - this.px(3), b.text, 9, { fill: "#fff" }, g);
    });
  }

  showTip(m, ev) {
    const rows = [m.name && m.name !== m.id ? `${m.id} ${m.name}` : m.id, ...m.tooltip.filter(([k]) => k !== "id" && k !== "name").map(([k, v]) => `${k}: ${v}`)];
    rows.push(`at (${m.x.toFixed(1)}, ${m.y.toFixed(1)}, height ${m.z})`);
    if (m.badges.length) rows.push("status: " + m.badges.map((b) => b.text).join(", "));
    this.tip.textContent = rows.join("\n");
    this.tip.style.whiteSpace = "pre-wrap";
    this.tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 240) + "px";
    this.tip.style.top = ev.clientY + 10 + "px";
    this.tip.style.display = "block";
  }

  spot(s, onSpot) {
    // a fixed size on screen: spots a fraction of an inch apart come apart as the board zooms in
    const c = el("circle", { class: "spot", cx: this.sx(s.point[0]), cy: this.sy(s.point[1]), r: this.px(6), "stroke-width": this.px(1), "data-testid": `spot-${s.i}` }, this.svg);
    el("title", {}, c).textContent = s.label || s.text;
    c.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (this.dragged) { this.dragged = false; return; }
      onSpot(s);
    });
  }

  line(l) {
    el("line", { x1: this.sx(l.a[0]), y1: this.sy(l.a[1]), x2: this.sx(l.b[0]), y2: this.sy(l.b[1]),
      stroke: l.clear ? "#1565c0" : "#c62828", "stroke-width": this.px(2) }, this.svg);
  }
}

function centroid(points) {
  const n = points.length;
  return [points.reduce((s, p) => s + p[0], 0) / n, points.reduce((s, p) => s + p[1], 0) / n];
}
