// The pages of the web table: a new game, a table in play, a replay. Plain JS, no build step.
import { Board } from "./board.js";

const main = document.getElementById("main");

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function api(method, url, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["X-Token"] = token;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status, data });
  return data;
}

function errorText(err) {
  const d = err.data || {};
  const lines = [err.message];
  for (const r of d.reasons || []) lines.push(`[${r.rule}] ${r.text}`);
  for (const p of d.problems || []) lines.push(`${p.file ? p.file + ": " : ""}${p.place}: ${p.message}`);
  return lines.join("\n");
}

function tipNode() {
  return document.body.appendChild(h("div", { class: "tip" }));
}

// ---------------------------------------------------------------------------------------- new game
async function newGamePage() {
  document.getElementById("subtitle").textContent = "new game";
  const meta = await api("GET", "/api/meta");
  const replays = await api("GET", "/api/replays");
  const uploads = {};
  const rulesetSel = h("select", { "data-testid": "ruleset", id: "ruleset" },
    meta.rulesets.map((r) => h("option", { value: r.id }, r.title)));
  const docSelect = (key, kind) => {
    const sel = h("select", { "data-testid": key, id: key });
    const file = h("input", { type: "file", accept: ".yaml,.yml,.json", "data-testid": `upload-${key}`,
      onchange: async () => { uploads[key] = await file.files[0].text(); sel.value = "__upload__"; } });
    const fill = () => {
      const rs = meta.rulesets.find((r) => r.id === rulesetSel.value);
      sel.replaceChildren(...rs[kind].map((s) => h("option", { value: s.id }, s.name)), h("option", { value: "__upload__" }, "uploaded file…"));
    };
    return { sel, file, fill };
  };
  const a = docSelect("warband-a", "warbands"), b = docSelect("warband-b", "warbands"), sc = docSelect("scenario", "scenarios");
  const fillAll = () => { a.fill(); b.fill(); sc.fill(); if (b.sel.options.length > 2) b.sel.selectedIndex = 1; const d = [...sc.sel.options].find((o) => o.value === "default"); if (d) sc.sel.value = "default"; };
  rulesetSel.addEventListener("change", fillAll);
  fillAll();
  const agents = h("datalist", { id: "agents" }, ["human", ...meta.agents, "mcts:iterations=200"].map((x) => h("option", { value: x })));
  const seatA = h("input", { list: "agents", value: "human", "data-testid": "seat-a" });
  const seatB = h("input", { list: "agents", value: "heuristic", "data-testid": "seat-b" });
  const dice = h("select", { "data-testid": "dice" }, h("option", { value: "digital" }, "digital (seeded)"), h("option", { value: "physical" }, "physical (type the faces)"));
  const seed = h("input", { type: "number", value: "1", min: "0", "data-testid": "seed" });
  const params = h("input", { placeholder: "name=value, name=value (e.g. rounds=1)", "data-testid": "params" });
  const unmodelled = h("input", { type: "checkbox", "data-testid": "allow-unmodelled" });
  const out = h("div", { class: "error", "data-testid": "problems" });
  const links = h("div", { class: "links", "data-testid": "links" });
  const choice = (d) => (d.sel.value === "__upload__" ? { text: uploads[d.sel.id] || "" } : { sample: d.sel.value });
  const body = () => ({
    ruleset: rulesetSel.value, a: choice(a), b: choice(b), scenario: choice(sc), seats: [seatA.value.trim(), seatB.value.trim()],
    dice: dice.value, seed: Number(seed.value), params: Object.fromEntries(params.value.split(",").map((s) => s.trim()).filter(Boolean).map((s) => s.split("=").map((x) => x.trim()))),
    allow_unmodelled: unmodelled.checked,
  });
  const create = async (ev) => {
    ev.preventDefault();
    out.textContent = ""; links.replaceChildren();
    try {
      const res = await api("POST", "/api/games", body());
      links.append(h("p", {}, "Each seat has its own secret link; send the other one to your opponent."),
        ...["A", "B", "spectator"].map((k) => h("a", { href: res.links[k], "data-testid": `link-${k}`, target: "_blank" }, `${k === "spectator" ? "spectators" : "seat " + k}: ${location.origin}${res.links[k]}`)));
    } catch (err) { out.textContent = errorText(err); }
  };
  const check = async (ev) => {
    ev.preventDefault();
    out.textContent = ""; links.replaceChildren();
    const msgs = [];
    for (const [d, kind] of [[a, "warband"], [b, "warband"], [sc, "scenario"]]) {
      try {
        const r = await api("POST", "/api/validate", { ruleset: rulesetSel.value, kind, doc: choice(d) });
        msgs.push(`${d.sel.id}: OK ${r.summary}`, ...(r.unmodelled || []).map((x) => `  not modelled: ${x}`));
      }
      catch (err) { msgs.push(`${d.sel.id}: ${errorText(err)}`); }
    }
    out.textContent = msgs.join("\n");
  };
  main.replaceChildren(
    h("h2", {}, "New game"),
    h("p", {}, h("a", { href: "/builder", "data-testid": "builder-link" }, "Build a warband from a faction's list"), ", then play it or simulate it."),
    h("form", { class: "newgame", onsubmit: create },
      h("label", {}, "Ruleset"), rulesetSel,
      h("label", {}, "Side A warband"), h("span", {}, a.sel, " or upload ", a.file),
      h("label", {}, "Side B warband"), h("span", {}, b.sel, " or upload ", b.file),
      h("label", {}, "Scenario"), h("span", {}, sc.sel, " or upload ", sc.file),
      h("label", {}, "Seat A"), seatA, h("label", {}, "Seat B"), seatB,
      h("label", {}, "Dice"), dice, h("label", {}, "Seed"), seed, h("label", {}, "Rule settings"), params,
      h("label", {}, "Unmodelled rules"), h("label", { class: "check" }, unmodelled, " allow warbands whose rules the engine does not all play (played without them)"),
      h("span", {}), h("span", {}, h("button", { type: "submit", "data-testid": "create" }, "Create game"), " ",
        h("button", { onclick: check, "data-testid": "validate" }, "Check files"))),
    agents, out, links,
    h("h2", {}, "Replays"),
    h("div", { class: "links", "data-testid": "replays" }, replays.replays.map((r) => h("a", { href: `/replay/${r.id}` }, r.title))),
  );
}

// ---------------------------------------------------------------------------------------- the table
class TablePage {
  constructor(id, token) {
    this.id = id; this.token = token; this.snap = null; this.log = []; this.legal = [];
    this.selected = null; this.pick = null; this.measuring = null; this.line = null; this.sending = null;
    this.menu = null; // the selected (or acting) model's full menu: every action with why the others are refused
    this.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.board = new Board(this.svg, tipNode());
    this.board.onModel = (mid) => this.modelClicked(mid);
    this.board.onPoint = (p) => this.pointClicked(p);
    this.who = h("div", { "data-testid": "who" });
    this.status = h("div", { class: "status", "data-testid": "status" });
    this.turn = h("div", { "data-testid": "turn" });
    this.objectives = h("div", { class: "objectives", "data-testid": "objectives" });
    this.error = h("div", { class: "error", "data-testid": "error" });
    this.info = h("div", { class: "info", "data-testid": "info" });
    this.actions = h("div", { class: "actions", "data-testid": "actions" });
    this.dice = h("div", { "data-testid": "dice-entry" });
    this.logBox = h("div", { class: "log", "data-testid": "log" });
    this.roster = h("div", { class: "roster", "data-testid": "roster" });
    this.measureBtn = h("button", { "data-testid": "ruler", onclick: () => this.toggleMeasure() }, "Ruler / line of sight");
    this.measureOut = h("div", { "data-testid": "measure" });
    main.replaceChildren(h("div", { class: "layout" }, h("div", { class: "boardcol" }, this.board.element),
      h("div", { class: "panel" }, this.who, this.status, this.objectives, this.turn, this.error, this.info,
        h("h3", {}, "Actions"), this.actions, this.dice,
        h("h3", {}, "Warbands"), this.roster,
        h("h3", {}, "Tools"), h("div", { class: "tools" }, this.measureBtn), this.measureOut,
        h("h3", {}, "Log"), this.logBox)));
    let resizing = null;
    window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(() => this.snap && this.draw(), 150); });
  }

  async start() {
    await this.refresh();
    this.listen();
  }

  listen() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${this.id}/ws?token=${encodeURIComponent(this.token)}`);
    ws.onmessage = (ev) => { const v = JSON.parse(ev.data).version; if (!this.snap || v !== this.snap.version) this.refresh(); };
    ws.onopen = () => { this.retry = 1000; };
    // the server went away (a restart): try again, less often while it stays away; the next answer clears the
    // connection's error
    ws.onclose = () => {
      this.retry = Math.min(10000, (this.retry || 1000) * 1.5);
      setTimeout(() => { this.refresh(); this.listen(); }, this.retry);
    };
  }

  async refresh() {
    if (this.loading) { this.again = true; return; }
    this.loading = true;
    try {
      const snap = await api("GET", `/api/games/${this.id}?token=${encodeURIComponent(this.token)}&since=${this.log.length}`);
      if (snap.log_from === this.log.length) this.log.push(...snap.log);
      const changed = !this.snap || snap.version !== this.snap.version;
      this.snap = snap;
      if (changed) { this.pick = null; this.legal = []; }
      if (changed && snap.your_turn && snap.decision.kind === "choice") {
        const legal = await api("GET", `/api/games/${this.id}/legal?token=${encodeURIComponent(this.token)}`);
        if (legal.version === snap.version) this.legal = legal.actions;
      }
      if (changed && snap.your_turn && snap.decision.kind === "choice") await this.loadMenu(this.selected || snap.decision.model, snap.version);
      if (this.offline) { this.offline = false; if (this.error.dataset.offline) { this.error.textContent = ""; delete this.error.dataset.offline; } }
      this.render();
    } catch (err) {
      this.error.textContent = err.status ? errorText(err) : `The server cannot be reached (${err.message}); trying again…`;
      if (!err.status) { this.offline = true; this.error.dataset.offline = "1"; }
    }
    finally {
      this.loading = false;
      if (this.again) { this.again = false; this.refresh(); }
    }
  }

  async loadMenu(model, version) {
    // every action of the model (legal or not) with the rules that refuse the others, for the greyed buttons
    this.menu = null;
    if (!model) return;
    try {
      const res = await api("GET", `/api/games/${this.id}/menu?token=${encodeURIComponent(this.token)}&model=${encodeURIComponent(model)}`);
      if (res.version === version) this.menu = { model, actions: res.actions };
    } catch (err) { this.menu = null; }
  }

  render() {
    const s = this.snap, v = s.view;
    document.getElementById("subtitle").textContent = `${s.title} — game ${s.id}`;
    document.title = `${s.ruleset} table`;
    const seat = typeof s.role === "number" ? `side ${"AB"[s.role]} (${v.sides[s.role].name})` : "a spectator";
    this.who.replaceChildren(h("b", {}, `You are ${seat}.`), ` Seats: A ${s.seats[0]}, B ${s.seats[1]}; dice ${s.dice}.`);
    this.status.replaceChildren(...v.status.map((x) => h("span", {}, x)),
      ...v.sides.filter((x) => x.badges.length).map((x) => h("span", { class: "turn wait" }, `${"AB"[x.index]}: ${x.badges.map((b) => b.text).join(" ")}`)));
    this.objectives.replaceChildren(...v.objectives.map((o) => h("span", { class: "obj", "data-testid": `holder-${o.id}`, "data-holder": o.holder || "", style: o.owner === null || o.owner === undefined ? "" : `color:${v.sides[o.owner].colour}` },
      `${o.id} (${o.vp} VP): ${o.holder && o.holder !== "nobody" ? "held by " + o.holder : "held by nobody"}`)));
    this.turn.replaceChildren(this.turnLine());
    if (s.fault) this.error.textContent = s.fault;
    this.turn.dataset.version = String(s.version);
    this.renderActions();
    this.renderDice();
    this.renderRoster();
    this.logBox.replaceChildren(...this.log.map((line) => h("div", {}, line)));
    this.logBox.scrollTop = this.logBox.scrollHeight;
    this.draw();
  }

  turnLine() {
    const s = this.snap, d = s.decision;
    if (s.result) {
      const who = s.result.winner === null ? "a draw" : `side ${"AB"[s.result.winner]} wins`;
      return h("span", { class: "turn wait", "data-testid": "result" }, `Game over: ${who} (${s.result.reason}; ${s.result.score.join("-")})`);
    }
    const what = d.kind === "chance" ? `roll ${d.dice.n}d${d.dice.sides}: ${d.said}` : (d.said || `${d.prompt}${d.model ? " for " + d.model_name : ""}`);
    if (s.your_turn) return h("span", { class: "turn yours", "data-testid": "your-turn", "data-prompt": d.prompt || d.kind }, `Your decision: ${what}`);
    const who = s.decider === null ? "the server" : `side ${"AB"[s.decider]} (${s.seats[s.decider]})`;
    return h("span", { class: "turn wait", "data-testid": "waiting" }, `Waiting for ${who}: ${what}`);
  }

  groups() {
    // point actions of the same kind/model/target/option form one button; a click shows their spots
    const out = [], byKey = new Map();
    const shown = this.selected ? this.legal.filter((a) => a.model === this.selected || a.target === this.selected) : this.legal;
    for (const a of shown) {
      if (!a.point) { out.push({ first: a, members: [a] }); continue; }
      const key = [a.kind, a.model, a.target, a.option].join("|");
      if (!byKey.has(key)) { const g = { first: a, members: [] }; byKey.set(key, g); out.push(g); }
      byKey.get(key).members.push(a);
    }
    return out;
  }

  renderActions() {
    const rows = [];
    if (this.selected) rows.push(h("button", { onclick: () => this.select(null), "data-testid": "show-all" }, `showing ${this.nameOf(this.selected)}; show every action`));
    for (const g of this.groups()) {
      const a = g.first;
      const label = a.point ? `${(a.label || a.text).replace(/ @.*$/, "")} — pick a spot (${g.members.length}) or click the table` : (a.label || a.text);
      const odds = [a.note, a.odds].filter(Boolean).join(" · ");
      rows.push(h("button", { "data-testid": `action-${a.i}`, "data-model": a.model || "", onclick: () => (a.point ? this.startPick(g) : this.act(a)) }, label, odds ? h("span", { class: "odds" }, odds) : ""));
    }
    if (!rows.length && this.snap.your_turn && this.snap.decision.kind === "choice") rows.push(h("span", {}, "Loading the legal actions…"));
    const refused = this.refused();
    if (refused.length) {
      rows.push(h("details", { class: "refused", open: true, "data-testid": "refused" },
        h("summary", {}, `Not allowed now (${refused.length}) — each with the rule that forbids it`),
        ...refused.map((a, k) => h("button", { disabled: true, class: "illegal", "data-testid": `illegal-${k}`, "data-model": a.model || "", "data-rule": a.reasons[0].rule },
          a.label, h("span", { class: "why" }, a.reasons.map((r) => `[${r.rule}] ${r.text}`).join("; "))))));
    }
    this.actions.replaceChildren(...rows);
  }

  refused() {
    // the menu's illegal actions of the model shown (one line per action and reason), once the choice is ours
    if (!this.menu || !this.snap.your_turn) return [];
    const who = this.selected || this.snap.decision.model;
    if (who && this.menu.model !== who) return [];
    const seen = new Set();
    return this.menu.actions.filter((a) => !a.legal).filter((a) => {
      const key = `${a.label.replace(/ @.*$/, "")}|${a.reasons.map((r) => r.rule).join(",")}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  renderRoster() {
    const v = this.snap.view;
    if (!v.roster) { this.roster.replaceChildren(); return; }
    const open = new Set([...this.roster.querySelectorAll("details[open]")].map((d) => d.dataset.model));
    const sides = v.roster.map((models, side) => h("div", { class: "rside", "data-testid": `roster-side-${"AB"[side]}` },
      h("div", { class: "rhead", style: `color:${v.sides[side].colour}` }, `Side ${"AB"[side]}: ${v.sides[side].name}`),
      ...models.map((m) => h("details", { class: "rmodel" + (m.deployed ? "" : " off") + (this.selected && (this.selected === m.id || this.selected === m.unit) ? " chosen" : ""), "data-model": m.id, "data-testid": `roster-${m.id}`, open: open.has(m.id) },
        h("summary", {}, h("b", {}, m.name), ` ${m.id}`, m.type && m.type !== m.name ? ` · ${m.type}` : "",
          h("span", { class: "rstatus" }, ` · ${m.deployed ? (m.status.join(", ") || "on the table") : m.where}`)),
        h("div", { class: "rbody" },
          h("div", { class: "rprofile" }, m.profile.map(([k, val]) => `${k} ${val}`).join(" · ")),
          m.weapons.length ? h("ul", { class: "rweapons" }, m.weapons.map((w) => h("li", {}, h("b", {}, w.name), ` ${w.range}`,
            w.keywords ? ` — ${w.keywords}` : "", w.stats ? ` (${w.stats})` : ""))) : "",
          m.deployed ? h("button", { type: "button", onclick: () => this.modelClicked(m.id) }, "select on the table") : "")))));
    this.roster.replaceChildren(...sides);
  }

  renderDice() {
    const s = this.snap, d = s.decision;
    if (!(s.your_turn && d.kind === "chance")) { this.dice.replaceChildren(); this.diceFor = null; return; }
    // a refresh that brings the same version keeps the form, so faces typed so far are not wiped
    if (this.diceFor === s.version && this.dice.firstChild) return;
    this.diceFor = s.version;
    // faces typed so far survive a reload of the page (kept per game and state version in this browser)
    const key = `warband-dice:${this.id}:${s.version}`;
    let kept = [];
    try { kept = JSON.parse(localStorage.getItem(key) || "[]"); } catch (err) { kept = []; }
    const keep = () => { try { localStorage.setItem(key, JSON.stringify(inputs.map((x) => x.value))); } catch (err) { /* private mode */ } };
    const inputs = Array.from({ length: d.dice.n }, (_, k) => h("input", { type: "number", min: 1, max: d.dice.sides, style: "width:3.5em", "data-testid": `die-${k}`, value: kept[k] || null, oninput: () => keep() }));
    const send = async (ev) => {
      ev.preventDefault();
      await this.send("roll", { version: s.version, values: inputs.map((x) => Number(x.value)) });
      if (this.snap.version !== s.version) try { localStorage.removeItem(key); } catch (err) { /* private mode */ }
    };
    this.dice.replaceChildren(h("form", { onsubmit: send }, h("div", { "data-testid": "dice-said" }, h("b", {}, `Roll ${d.dice.n}d${d.dice.sides}: `), d.said, ". Type the faces: "), ...inputs,
      h("button", { type: "submit", "data-testid": "roll-submit" }, "Enter dice")));
  }

  draw() {
    const extras = { line: this.line };
    if (this.pick) extras.spots = this.pick.members, extras.onSpot = (a) => this.act(a);
    this.board.selected = this.selected;
    this.board.draw(this.snap.view, extras);
  }

  nameOf(mid) {
    const m = this.snap.view.models.find((x) => x.id === mid || x.unit === mid);
    return m && m.name && m.name !== mid ? `${mid} (${m.name})` : mid;
  }

  actor(mid) {
    // the id the actions name for a clicked model: the model itself, or its unit (games that act by units)
    const m = this.snap.view.models.find((x) => x.id === mid);
    if (m && m.unit && !this.legal.some((a) => a.model === mid) && this.legal.some((a) => a.model === m.unit)) return m.unit;
    return mid;
  }

  async select(clicked) {
    const mid = clicked ? this.actor(clicked) : null;
    this.selected = mid; this.pick = null;
    if (mid && this.legal.some((a) => a.model === mid)) {
      try {
        const res = await api("GET", `/api/games/${this.id}/legal?token=${encodeURIComponent(this.token)}&model=${encodeURIComponent(mid)}`);
        if (res.version === this.snap.version) {
          const odds = new Map(res.actions.map((a) => [a.i, a.odds]));
          this.legal = this.legal.map((a) => (odds.has(a.i) ? { ...a, odds: odds.get(a.i) } : a));
        }
      } catch (err) { this.error.textContent = errorText(err); }
    }
    if (this.snap.your_turn && this.snap.decision.kind === "choice") await this.loadMenu(mid || this.snap.decision.model, this.snap.version);
    this.renderActions(); this.renderRoster(); this.draw();
  }

  startPick(group) {
    this.pick = group;
    this.info.textContent = `${(group.first.label || group.first.text).replace(/ @.*$/, "")}: click a spot (zoom with the wheel, a pinch or + to tell close ones apart), or anywhere on the table`;
    this.draw();
  }

  modelClicked(mid) {
    if (this.measuring) return this.measurePick({ model: mid });
    this.select(this.selected === this.actor(mid) ? null : mid);
  }

  pointClicked(p) {
    if (this.measuring) return this.measurePick({ point: p });
    if (!this.pick) return;
    const a = this.pick.first;
    this.act({ kind: a.kind, model: a.model, target: a.target, option: a.option, point: p });
  }

  async act(a) {
    const action = { kind: a.kind };
    for (const k of ["model", "target", "point", "option"]) if (a[k] !== null && a[k] !== undefined) action[k] = a[k];
    await this.send("act", { version: this.snap.version, action });
  }

  async send(what, body) {
    // a second click on the decision already being sent is dropped; a click on a newer decision (shown by the
    // websocket before the first answer's reply came back) waits for that reply instead of being lost
    if (this.sending && this.sendingVersion === body.version) return;
    while (this.sending) await this.sending;
    this.sendingVersion = body.version;
    this.sending = this.post(what, body);
    try { await this.sending; } finally { this.sending = null; }
  }

  async post(what, body) {
    this.error.textContent = ""; this.info.textContent = "";
    try {
      await api("POST", `/api/games/${this.id}/${what}`, body, this.token);
      this.selected = null; this.pick = null;
      await this.refresh();
    } catch (err) { this.error.textContent = errorText(err); if (err.status === 409) await this.refresh(); }
  }

  toggleMeasure() {
    this.measuring = this.measuring ? null : [];
    this.measureBtn.classList.toggle("on", !!this.measuring);
    this.measureOut.textContent = this.measuring ? "Click two models or points." : "";
    this.line = null; this.draw();
  }

  async measurePick(spot) {
    this.measuring.push(spot);
    if (this.measuring.length < 2) { this.measureOut.textContent = "…and a second one."; return; }
    const [a, b] = this.measuring;
    this.measuring = [];
    try {
      const r = await api("POST", `/api/games/${this.id}/measure?token=${encodeURIComponent(this.token)}`, { a, b });
      const where = (s) => s.point || (({ x, y }) => [x, y])(this.snap.view.models.find((m) => m.id === s.model));
      this.line = { a: where(a), b: where(b), clear: r.line_of_sight };
      this.measureOut.textContent = `${r.centre}" centre to centre, ${r.edge}" edge to edge; line of sight ${r.line_of_sight ? "clear" : "blocked"} (${r.note})`;
    } catch (err) { this.measureOut.textContent = errorText(err); }
    this.draw();
  }
}

// ---------------------------------------------------------------------------------------- replays
async function replayPage(id) {
  // a web game's replay opens with one of that game's links: the token travels on
  const token = encodeURIComponent(new URLSearchParams(location.search).get("token") || "");
  const info = await api("GET", `/api/replays/${id}?token=${token}`);
  document.getElementById("subtitle").textContent = `replay: ${info.title}`;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  const board = new Board(svg, tipNode());
  const last = info.lines.length - 1;
  let step = 0, timer = null;
  const slider = h("input", { type: "range", min: 0, max: last, value: 0, "data-testid": "replay-slider" });
  const label = h("span", { "data-testid": "replay-step" }, "0");
  const status = h("div", { class: "status", "data-testid": "status" });
  const log = h("div", { class: "log", "data-testid": "log" }, info.lines.map((line, k) => h("div", { "data-step": k, "data-testid": `replay-line-${k}` }, line)));
  const go = async (k) => {
    step = Math.max(0, Math.min(last, k));
    slider.value = step;
    const res = await api("GET", `/api/replays/${id}/view?step=${step}&token=${token}`);
    if (res.step !== step) return;
    board.draw(res.view);
    label.textContent = `${step} / ${last}`;
    status.replaceChildren(...res.view.status.map((x) => h("span", {}, x)));
    for (const row of log.children) row.classList.toggle("current", Number(row.dataset.step) === step);
    log.children[step]?.scrollIntoView({ block: "nearest" });
  };
  const play = h("button", { "data-testid": "replay-play", onclick: () => {
    if (timer) { clearInterval(timer); timer = null; play.textContent = "Play"; return; }
    play.textContent = "Pause";
    timer = setInterval(() => { if (step >= last) { clearInterval(timer); timer = null; play.textContent = "Play"; } else go(step + 1); }, 400);
  } }, "Play");
  slider.addEventListener("input", () => go(Number(slider.value)));
  log.addEventListener("click", (ev) => { const row = ev.target.closest("[data-step]"); if (row) go(Number(row.dataset.step)); });
  const jump = h("input", { type: "number", min: 0, max: last, style: "width:5em", "data-testid": "replay-jump" });
  main.replaceChildren(h("div", { class: "layout" }, h("div", { class: "boardcol" }, board.element),
    h("div", { class: "panel" }, h("h3", {}, info.title), status,
      h("div", { class: "replaybar" }, h("button", { "data-testid": "replay-prev", onclick: () => go(step - 1) }, "◀"), slider,
        h("button", { "data-testid": "replay-next", onclick: () => go(step + 1) }, "▶"), play, label),
      h("form", { onsubmit: (ev) => { ev.preventDefault(); go(Number(jump.value)); } }, "Jump to step ", jump, h("button", { "data-testid": "replay-go" }, "Go")),
      info.result ? h("div", { "data-testid": "result" }, `Result: ${info.result.winner === null ? "draw" : "side " + "AB"[info.result.winner] + " wins"} (${info.result.reason})`) : "",
      h("h3", {}, "Steps"), log)));
  await go(0);
}

// ---------------------------------------------------------------------------------------- routing
async function route() {
  const path = location.pathname;
  try {
    if (path.startsWith("/table/")) {
      const token = new URLSearchParams(location.search).get("token") || "";
      const table = new TablePage(decodeURIComponent(path.slice(7)), token);
      window.warbandTable = table; // a handle for the console and the browser tests
      await table.start();
    } else if (path.startsWith("/replay/")) {
      await replayPage(decodeURIComponent(path.slice(8)));
    } else {
      await newGamePage();
    }
  } catch (err) {
    main.replaceChildren(h("div", { class: "error", "data-testid": "error" }, errorText(err)));
  }
}

route();
