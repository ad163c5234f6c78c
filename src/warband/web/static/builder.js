// The warband builder page: a ruleset's lists (faction, then models, then their kit) drawn from
// /api/builder, the plan checked by the server after every change (totals, problems, rules not modelled,
// which next choices would break a rule), then saved as a file, played, or simulated. Plain JS, no build step.

const main = document.getElementById("main");
const DRAFT = "warband-builder-draft";
const KINDS = { ranged: "Ranged weapons", melee: "Melee weapons", armour: "Armour", equipment: "Equipment", upgrade: "Upgrades" };

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c !== null && c !== undefined && c !== "") node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(method, url, body) {
  const res = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.ok && !(res.headers.get("content-type") || "").includes("json")) return res;
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw Object.assign(new Error(data.error || `HTTP ${res.status}`), { status: res.status, data });
  return data;
}

function errorText(err) {
  const d = err.data || {};
  const lines = [err.message];
  for (const p of d.problems || []) lines.push(`${p.file ? p.file + ": " : ""}${p.place}: ${p.message}`);
  return lines.join("\n");
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const one = (t) => (t.amount === 1 && t.limit === null && t.name.endsWith("s") ? t.name.slice(0, -1) : t.name);
const pct = (x) => `${Math.round(x * 100)}%`;

class Builder {
  constructor(rulesets, meta) {
    this.rulesets = rulesets; this.meta = meta;
    this.plan = null; this.focus = null; this.result = null; this.rev = 0; this.timer = null;
    this.build();
  }

  // ------------------------------------------------------------------------------------- the page once
  build() {
    this.rulesetSel = h("select", { id: "ruleset", "data-testid": "ruleset", onchange: () => this.chooseRuleset() },
      this.rulesets.map((r) => h("option", { value: r.id }, r.title)));
    this.factionSel = h("select", { id: "faction", "data-testid": "faction", onchange: () => this.chooseList(this.factionSel.value) });
    this.variantSel = h("select", { id: "variant", "data-testid": "variant", onchange: () => this.chooseList(this.variantSel.value || this.factionSel.value) });
    this.nameIn = h("input", { type: "text", id: "warband-name", "data-testid": "warband-name", maxlength: 120, oninput: () => { this.plan.name = this.nameIn.value; this.changed(300); } });
    this.pointsIn = h("input", { type: "number", id: "points-limit", min: 0, max: 100000, "data-testid": "points-limit", oninput: () => this.limitsChanged() });
    this.gloryIn = h("input", { type: "number", id: "glory-limit", min: 0, max: 1000, "data-testid": "glory-limit", oninput: () => this.limitsChanged() });
    this.pointsLabel = h("label", { for: "points-limit" }, "Points to spend");
    this.gloryLabel = h("label", { for: "glory-limit" }, "Glory to spend");
    this.listNote = h("div", { class: "small muted", "data-testid": "list-note" });
    this.offers = h("ul", { class: "offers", "data-testid": "models" });
    this.tallies = h("div", { class: "tallies", "data-testid": "tallies" });
    this.entries = h("div", { "data-testid": "entries" });
    this.problems = h("div", { "data-testid": "problems" });
    this.notes = h("div", { "data-testid": "notes" });
    this.error = h("div", { class: "error", "data-testid": "error" });
    this.buildUse();
    const setup = h("section", {}, h("h2", {}, "Warband"),
      h("div", { class: "fields" },
        h("label", { for: "ruleset" }, "Game"), this.rulesetSel,
        h("label", { for: "faction" }, "Faction"), this.factionSel,
        h("label", { for: "variant" }, "Variant"), this.variantSel,
        h("label", { for: "warband-name" }, "Name"), this.nameIn,
        this.pointsLabel, this.pointsIn, this.gloryLabel, this.gloryIn),
      this.listNote,
      h("p", { class: "small" }, h("button", { type: "button", "data-testid": "start-over", onclick: () => this.startOver() }, "Start over")));
    const list = h("section", {}, h("h2", {}, "Models of the list"),
      h("p", { class: "small muted" }, "Cost and how many the list fields; a model that would break a rule says which."), this.offers);
    const band = h("section", {}, h("h2", {}, "Your warband"), this.tallies, this.entries);
    const rules = h("section", {}, h("h2", {}, "Problems"), this.problems, h("h3", {}, "Rules the engine does not play"), this.notes);
    main.replaceChildren(this.error, h("div", { class: "columns" }, h("div", {}, setup, list), h("div", {}, band, rules, this.use)));
  }

  buildUse() {
    const agentList = ["human", ...this.meta.agents];
    this.opponent = h("select", { "data-testid": "opponent", id: "opponent" });
    this.allow = h("input", { type: "checkbox", "data-testid": "allow-unmodelled", onchange: () => this.renderUse() });
    this.saveBtn = h("button", { type: "button", "data-testid": "save", onclick: () => this.save() }, "Save the file");
    this.seatA = h("input", { class: "seat", list: "builder-agents", value: "human", "data-testid": "seat-a", "aria-label": "seat A (your warband)" });
    this.seatB = h("input", { class: "seat", list: "builder-agents", value: "heuristic", "data-testid": "seat-b", "aria-label": "seat B (the opponent)" });
    this.playBtn = h("button", { type: "button", "data-testid": "play", onclick: () => this.play() }, "Start a game");
    this.games = h("input", { type: "number", min: 1, max: 200, value: 10, "data-testid": "games", "aria-label": "games" });
    this.agentA = h("select", { "data-testid": "agent-a", "aria-label": "agent of your warband" }, this.meta.agents.map((a) => h("option", { value: a, selected: a === "heuristic" }, a)));
    this.agentB = h("select", { "data-testid": "agent-b", "aria-label": "agent of the opponent" }, this.meta.agents.map((a) => h("option", { value: a, selected: a === "heuristic" }, a)));
    this.simBtn = h("button", { type: "button", "data-testid": "simulate", onclick: () => this.simulate() }, "Simulate");
    this.useReason = h("div", { class: "reason", "data-testid": "use-reason" });
    this.saved = h("div", { class: "summary", "data-testid": "saved" });
    this.links = h("div", { class: "summary links", "data-testid": "links" });
    this.simOut = h("div", { class: "summary", "data-testid": "sim-result" });
    this.use = h("section", { class: "use" }, h("h2", {}, "Save, play or simulate"), this.useReason,
      h("div", { class: "row" }, this.saveBtn, h("span", { class: "small muted" }, "a warband file for warband validate, play and simulate")), this.saved,
      h("div", { class: "row" }, h("label", { for: "opponent" }, "Against"), this.opponent),
      h("label", { class: "row small" }, this.allow, "allow unmodelled rules (the games are played without them)"),
      h("h3", {}, "A game"),
      h("div", { class: "row" }, h("span", {}, "Your seat ", this.seatA), h("span", {}, "Opponent ", this.seatB), this.playBtn),
      h("datalist", { id: "builder-agents" }, [...agentList, "mcts:iterations=200"].map((x) => h("option", { value: x }))),
      this.links,
      h("h3", {}, "A simulation"),
      h("div", { class: "row" }, h("span", {}, "Games ", this.games), h("span", {}, "You ", this.agentA), h("span", {}, "Opponent ", this.agentB), this.simBtn),
      this.simOut);
  }

  // ------------------------------------------------------------------------------------------ choices
  get rs() { return this.rulesets.find((r) => r.id === this.rulesetSel.value); }
  listOf(id) { return this.rs.lists.find((l) => l.id === id); }

  chooseRuleset(draft) {
    const lists = this.rs.lists;
    this.factionSel.replaceChildren(...lists.filter((l) => l.kind !== "variant").map((l) => h("option", { value: l.id }, l.name)));
    const samples = (this.meta.rulesets.find((r) => r.id === this.rs.id) || { warbands: [] }).warbands;
    this.opponent.replaceChildren(...samples.map((s) => h("option", { value: s.id }, s.name)));
    const start = draft && this.listOf(draft.list_id) ? draft.list_id : lists[0].id;
    this.chooseList(start, draft);
  }

  async chooseList(id, draft) {
    const list = this.listOf(id);
    const faction = list.kind === "variant" ? list.faction : list.id;
    this.factionSel.value = faction;
    const variants = this.rs.lists.filter((l) => l.faction === faction);
    this.variantSel.replaceChildren(h("option", { value: "" }, variants.length ? "none (the faction's own list)" : "none"),
      ...variants.map((l) => h("option", { value: l.id }, l.name)));
    this.variantSel.value = list.kind === "variant" ? list.id : "";
    this.variantSel.disabled = !variants.length;
    let note = "";
    if (draft) {
      this.plan = draft;
    } else {
      const old = this.plan;
      this.plan = { name: old && old.name && !old.name.startsWith("My ") ? old.name : `My ${list.name} warband`, list_id: id, points_limit: list.points, glory_limit: list.glory, picks: [] };
      if (old && old.picks.length) {
        const fielded = new Set((await api("GET", `/api/builder/${this.rs.id}/lists/${id}/models`)).models.map((m) => m.id));
        this.plan.picks = old.picks.filter((p) => fielded.has(p.model));
        const dropped = (this.result ? this.result.entries : []).filter((_, i) => !fielded.has(old.picks[i].model)).map((e) => e.label);
        if (dropped.length) note = `Left out, not in the ${list.name} list: ${dropped.join(", ")}.`;
      }
    }
    this.listNote.textContent = [list.kind === "variant" ? `${list.name}: a variant of ${this.listOf(faction).name}.` : "", `Starts with ${list.cost}.`, note].filter(Boolean).join(" ");
    this.nameIn.value = this.plan.name;
    this.pointsIn.value = this.plan.points_limit;
    this.gloryIn.value = this.plan.glory_limit ?? list.glory;
    this.focus = null;
    this.changed();
  }

  limitsChanged() {
    const n = (input) => (input.value === "" ? null : Math.max(0, Math.floor(Number(input.value))));
    this.plan.points_limit = n(this.pointsIn) ?? 0;
    this.plan.glory_limit = n(this.gloryIn);
    this.changed(300);
  }

  startOver() {
    const id = this.plan.list_id;
    localStorage.removeItem(DRAFT);
    this.plan = null; this.result = null;
    this.chooseList(id);
  }

  addModel(offer) {
    this.plan.picks.push({ model: offer.id, count: 1, name: null, items: [...offer.start.items], upgrades: [...offer.start.upgrades] });
    this.focus = this.reveal = this.plan.picks.length - 1;
    this.changed();
  }

  removeEntry(i) {
    this.plan.picks.splice(i, 1);
    if (this.focus === i) this.focus = null;
    else if (this.focus !== null && this.focus > i) this.focus -= 1;
    this.changed();
  }

  count(i, by) {
    const p = this.plan.picks[i];
    p.count = Math.min(50, Math.max(1, p.count + by));
    this.changed();
  }

  take(i, offer) {
    const p = this.plan.picks[i];
    (offer.kind === "upgrade" ? p.upgrades : p.items).push(offer.id);
    this.changed();
  }

  drop(i, key, k) {
    this.plan.picks[i][key].splice(k, 1);
    this.changed();
  }

  // ------------------------------------------------------------------------------------ the server's check
  changed(delay = 0) {
    localStorage.setItem(DRAFT, JSON.stringify({ ruleset: this.rs.id, plan: this.plan }));
    this.rev += 1;
    main.dataset.rev = String(this.rev);
    this.links.replaceChildren(); this.simOut.replaceChildren(); this.saved.replaceChildren();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(this.rev), delay);
  }

  async check(rev) {
    try {
      const result = await api("POST", `/api/builder/${this.rs.id}/check`, { plan: this.plan, focus: this.focus });
      if (rev !== this.rev) return;
      this.error.textContent = "";
      this.result = result;
      this.render();
    } catch (err) {
      if (rev === this.rev) this.error.textContent = errorText(err);
    }
    if (rev === this.rev) main.dataset.checked = String(rev);
  }

  // ----------------------------------------------------------------------------------------- drawing
  render() {
    const r = this.result;
    const [points, glory] = r.tallies;
    if (points) this.pointsLabel.textContent = `${capital(points.name)} to spend`;
    if (glory) this.gloryLabel.textContent = `${capital(glory.name)} to spend`;
    this.tallies.replaceChildren(...(r.tallies.length ? r.tallies : [{ name: r.totals, amount: "", limit: null }]).map((t) =>
      h("span", { class: `tally${t.limit !== null && t.amount > t.limit ? " over" : ""}`, "data-testid": `tally-${t.name}` },
        h("b", {}, t.amount), t.limit !== null ? ` of ${t.limit} ` : " ", one(t))));
    this.renderOffers();
    this.renderEntries();
    this.renderProblems();
    this.renderUse();
    const added = this.reveal !== null && this.reveal !== undefined ? this.entries.querySelector(`[data-testid=entry-${this.reveal}]`) : null;
    this.reveal = null;
    if (added) added.scrollIntoView({ block: "start" }); // a phone shows the new model and its kit, not the list
  }

  renderOffers() {
    this.offers.replaceChildren(...this.result.models.map((m) => h("li", { "data-testid": `model-${m.id}` },
      h("span", {}, h("span", { class: "name" }, m.name), " ", h("span", { class: "muted" }, `${m.cost}${m.limit ? " · " + m.limit : ""}`)),
      h("button", { type: "button", "data-testid": `add-${m.id}`, disabled: !!m.blocked, title: m.blocked || `add a ${m.name}`, onclick: () => this.addModel(m) }, "Add"),
      m.blocked ? h("span", { class: "why", "data-testid": `why-${m.id}` }, `Cannot add: ${m.blocked}`) : "")));
  }

  renderEntries() {
    const r = this.result;
    if (!this.plan.picks.length) {
      this.entries.replaceChildren(h("p", { class: "muted" }, "No models yet: add them from the list."));
      return;
    }
    this.entries.replaceChildren(...this.plan.picks.map((p, i) => {
      const e = r.entries[i];
      const mine = r.problems.filter((x) => x.entry === i);
      const nameIn = h("input", { type: "text", class: "entry-name", maxlength: 80, placeholder: "its name (optional)", value: p.name || "", "data-testid": `entry-name-${i}`, "aria-label": `name of ${e.label}`,
        onchange: () => { p.name = nameIn.value.trim() || null; this.changed(); } });
      const chips = [...e.items.map((x, k) => ["items", x, k]), ...e.upgrades.map((x, k) => ["upgrades", x, k])].map(([key, x, k]) =>
        h("span", { class: `chip${key === "upgrades" ? " upgrade" : ""}`, "data-testid": `held-${i}-${x.id}` }, x.name, " ",
          h("button", { type: "button", class: "small", title: `remove ${x.name}`, "aria-label": `remove ${x.name}`, "data-testid": `drop-${i}-${x.id}`, onclick: () => this.drop(i, key, k) }, "×")));
      const open = this.focus === i;
      return h("div", { class: `entry${mine.length ? " bad" : ""}`, "data-testid": `entry-${i}` },
        h("div", { class: "top" }, h("span", { class: "title", "data-testid": `entry-title-${i}` }, e.label), h("span", { class: "cost", "data-testid": `entry-cost-${i}` }, e.cost),
          h("span", { class: "tools" },
            h("button", { type: "button", "data-testid": `less-${i}`, "aria-label": "one fewer", disabled: p.count <= 1, onclick: () => this.count(i, -1) }, "−"),
            h("span", { class: "count", "data-testid": `count-${i}` }, `×${p.count}`),
            h("button", { type: "button", "data-testid": `more-${i}`, "aria-label": "one more", onclick: () => this.count(i, 1) }, "+"),
            h("button", { type: "button", "data-testid": `kit-${i}`, "aria-expanded": open ? "true" : "false", onclick: () => { this.focus = open ? null : i; this.changed(); } }, open ? "Close kit" : "Kit"),
            h("button", { type: "button", "data-testid": `remove-${i}`, onclick: () => this.removeEntry(i) }, "Remove"))),
        nameIn,
        chips.length ? h("div", { class: "chips" }, chips) : h("div", { class: "small muted" }, "no kit bought"),
        mine.length ? h("ul", { class: "problems" }, mine.map((x) => h("li", {}, x.message))) : "",
        open && r.kit && r.kit.entry === i ? this.kitPanel(i, r.kit.offers) : "");
    }));
  }

  kitPanel(i, offers) {
    const kinds = [...new Set(offers.map((o) => o.kind))];
    return h("div", { class: "kit", "data-testid": "kit" },
      h("div", { class: "small muted" }, "What the list lets this model take, with its cost, LIMIT and hands."),
      kinds.map((kind) => [h("h4", {}, KINDS[kind] || capital(kind)),
        h("ul", { class: "offers" }, offers.filter((o) => o.kind === kind).map((o) => h("li", { class: o.held ? "held" : "", "data-testid": `offer-${o.id}` },
          h("span", {}, h("span", { class: "name" }, o.name), " ", h("span", { class: "muted" }, `${o.cost}${o.limit ? " · " + o.limit : ""}`)),
          h("button", { type: "button", "data-testid": `take-${o.id}`, disabled: !!o.blocked, title: o.blocked || `take ${o.name}`, onclick: () => this.take(i, o) }, "Take"),
          o.blocked ? h("span", { class: "why", "data-testid": `why-${o.id}` }, `Cannot take: ${o.blocked}`) : "")))]));
  }

  renderProblems() {
    const r = this.result;
    this.problems.replaceChildren(r.problems.length
      ? h("ul", { class: "problems" }, r.problems.map((p) => h("li", { "data-testid": "problem" }, h("b", {}, p.where), ": ", p.message)))
      : h("p", { class: "ok", "data-testid": "legal" }, "No problems: the warband follows its list."));
    const notes = r.notes.map((n) => n.replace(/^not modelled: /, ""));
    this.notes.replaceChildren(notes.length
      ? h("div", {}, h("p", { class: "small" }, "The engine plays these without their rules; games and simulations need “allow unmodelled rules”."),
        h("ul", { class: "notes" }, notes.map((n) => h("li", { "data-testid": "note" }, n))))
      : h("p", { class: "small muted" }, r.ok ? "Every rule of this warband is played." : "Listed once the warband breaks no rule."));
  }

  renderUse() {
    const r = this.result;
    if (!r) return;
    const unplayed = r.notes.length > 0 && !this.allow.checked;
    const why = !r.ok ? `The warband breaks ${r.problems.length} rule${r.problems.length === 1 ? "" : "s"}: fix ${r.problems.length === 1 ? "it" : "them"} to save, play or simulate.`
      : !this.plan.picks.length ? "Add models first."
      : unplayed ? "The engine does not play every rule of this warband: tick “allow unmodelled rules” to play or simulate without them." : "";
    this.useReason.textContent = why;
    this.saveBtn.disabled = !r.ok || !this.plan.picks.length;
    this.playBtn.disabled = this.simBtn.disabled = this.saveBtn.disabled || unplayed || this.busy;
  }

  // ------------------------------------------------------------------------------------- save, play, simulate
  async fileText() {
    const res = await api("POST", `/api/builder/${this.rs.id}/save`, this.plan);
    const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") || "");
    return { text: await res.text(), name: name ? name[1] : "warband.yaml" };
  }

  async save() {
    try {
      const file = await this.fileText();
      const url = URL.createObjectURL(new Blob([file.text], { type: "application/yaml" }));
      const a = h("a", { href: url, download: file.name });
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      this.saved.replaceChildren(`Saved ${file.name}. Check it with `, h("code", {}, `warband validate ${this.rs.id} ${file.name}`), ".");
    } catch (err) { this.error.textContent = errorText(err); }
  }

  async run(out, work) {
    this.error.textContent = ""; out.replaceChildren("Working…");
    this.busy = true; this.renderUse();
    try { await work(await this.fileText()); } catch (err) { out.replaceChildren(); this.error.textContent = errorText(err); }
    finally { this.busy = false; this.renderUse(); }
  }

  play() {
    return this.run(this.links, async (file) => {
      const res = await api("POST", "/api/games", { ruleset: this.rs.id, a: { text: file.text }, b: { sample: this.opponent.value },
        seats: [this.seatA.value.trim(), this.seatB.value.trim()], allow_unmodelled: this.allow.checked });
      this.links.replaceChildren(h("p", {}, "Each seat has its own secret link; your warband is seat A."),
        ...["A", "B", "spectator"].map((k) => h("a", { href: res.links[k], "data-testid": `link-${k}`, target: "_blank" }, `${k === "spectator" ? "spectators" : "seat " + k}: ${location.origin}${res.links[k]}`)));
    });
  }

  simulate() {
    return this.run(this.simOut, async (file) => {
      const s = await api("POST", "/api/simulate", { ruleset: this.rs.id, a: { text: file.text }, b: { sample: this.opponent.value },
        games: Math.min(200, Math.max(1, Number(this.games.value) || 1)), agent_a: this.agentA.value, agent_b: this.agentB.value, allow_unmodelled: this.allow.checked });
      const side = (x) => h("li", {}, h("b", {}, x.name), ` (${x.agent}): ${x.wins} win${x.wins === 1 ? "" : "s"}, ${pct(x.win_rate)} (95% interval ${pct(x.ci95[0])}–${pct(x.ci95[1])})`);
      this.simOut.replaceChildren(h("p", {}, `${s.games} games, sides swapped every other game:`),
        h("ul", {}, side(s.a), side(s.b), h("li", {}, `draws: ${s.draws}`)),
        h("p", { class: "small" }, `${s.mean_turns.toFixed(1)} turns a game on average; played in ${s.elapsed_s.toFixed(1)} s.`,
          s.crashes.length ? ` ${s.crashes.length} game(s) crashed: ${s.crashes[0]}.` : ""),
        h("p", { class: "small muted" }, "More games at the terminal: ", h("code", {}, s.command)));
    });
  }
}

async function start() {
  try {
    const [{ rulesets }, meta] = await Promise.all([api("GET", "/api/builder"), api("GET", "/api/meta")]);
    if (!rulesets.length) { main.replaceChildren(h("p", {}, "No installed game has lists to build a warband from.")); return; }
    const builder = new Builder(rulesets, meta);
    window.warbandBuilder = builder; // a handle for the console and the browser tests
    let draft = null;
    try { draft = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch { draft = null; }
    if (draft && rulesets.some((r) => r.id === draft.ruleset)) builder.rulesetSel.value = draft.ruleset;
    builder.chooseRuleset(draft && draft.ruleset === builder.rulesetSel.value ? draft.plan : null);
  } catch (err) {
    main.replaceChildren(h("div", { class: "error", "data-testid": "error" }, errorText(err)));
  }
}

start();
