/* Human play: the lobby (your matches, the open tables, a new table) and the table, which
   hears its state pushed over a WebSocket (tables/push.py; it polls the API while the connection
   is down, and says it is reconnecting) and offers your seat's legal actions, grouped (cards, bets, answers) and labelled in
   the variant's words by the server (tables/table_words.py). Messages come from Django's
   JavaScript catalogue (gettext), so the table speaks the page's language. */
(function () {
  "use strict";
  const { fetchJSON, el, card, messageOf } = window.Arena;
  const gettext = window.gettext || ((s) => s);
  // Messages are marked with gettext() where they are written, so makemessages finds them.
  const fmt = (s, values) => (window.interpolate ? window.interpolate(s, values, true) : s);
  const POLL_MS = 1500;
  // replaceChildren writes null as text: leave the missing parts out.
  const fill = (node, ...children) => node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false && c !== ""));

  /* --- the lobby ------------------------------------------------------------------------ */
  function lobby(options) {
    const table = document.getElementById("my-matches");
    fetchJSON("/api/play/matches/").then((matches) => {
      const rows = matches.filter((m) => !m.table).map((m) => el("tr", {},
        el("td", {}, el("a", { href: options.tableUrl.replace("/0/", "/" + m.match + "/") }, m.tournament_name + " · " + m.key)),
        el("td", {}, fmt(gettext("v %(name)s"), { name: m.opponent })),
        el("td", {}, m.variant),
        el("td", {}, m.status === "done" ? gettext("finished") : m.your_turn ? gettext("your turn") : m.waiting === "start" ? gettext("ready to start") : m.waiting === "next" ? gettext("between games") : gettext(m.status))));
      table.replaceChildren(el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", {}, gettext("No tournament matches yet.")))));
    }).catch(() => table.replaceChildren(el("tbody", {}, el("tr", {}, el("td", {}, gettext("Could not load your matches."))))));

    const form = document.getElementById("quick");
    const variants = JSON.parse(document.getElementById("variants-data").textContent);
    const optionsBox = document.getElementById("variant-options");
    const presetSelect = form.elements.preset;

    /* The controls of the chosen variant's options, from its schema (GET /api/variants/). */
    function drawOptions() {
      const variant = variants.find((v) => v.name === form.elements.variant.value);
      presetSelect.replaceChildren(el("option", { value: "" }, gettext("the variant's defaults")),
        Object.keys(variant.presets).map((name) => el("option", { value: name }, name)));
      const players = form.elements.players;
      for (const option of players.options) option.disabled = !variant.players.includes(Number(option.value));
      if (players.selectedOptions[0].disabled) players.value = String(variant.players[0]);
      optionsBox.replaceChildren(...variant.options.map(optionControl));
      applyPreset();
    }

    function optionControl(option) {
      const name = "option:" + option.name;
      let input;
      if (option.type === "bool") {
        input = el("input", { type: "checkbox", name: name, checked: option.default ? true : null });
        return el("label", { class: "option", title: option.help }, input, " " + option.name.replace(/_/g, " "), el("small", {}, option.help));
      }
      if (option.choices && option.choices.length) {
        input = el("select", { name: name }, option.choices.map((c) => el("option", { value: String(c), selected: c === option.default ? true : null }, String(c))));
      } else if (option.type === "int") {
        input = el("input", { type: "number", name: name, value: option.default, min: option.minimum, max: option.maximum });
      } else {
        input = el("input", { name: name, value: Array.isArray(option.default) ? option.default.join(" ") : String(option.default) });
      }
      input.dataset.type = option.type;
      return el("label", { class: "option", title: option.help }, option.name.replace(/_/g, " ") + " ", input, el("small", {}, option.help));
    }

    /* A preset sets its options' controls; the player may still change them. */
    function applyPreset() {
      const variant = variants.find((v) => v.name === form.elements.variant.value);
      const values = Object.assign({}, ...variant.options.map((o) => ({ [o.name]: o.default })), variant.presets[presetSelect.value] || {});
      for (const [key, value] of Object.entries(values)) {
        const input = form.elements["option:" + key];
        if (!input) continue;
        if (input.type === "checkbox") input.checked = Boolean(value);
        else input.value = Array.isArray(value) ? value.join(" ") : String(value);
      }
    }

    function chosenOptions() {
      const variant = variants.find((v) => v.name === form.elements.variant.value);
      const defaults = Object.assign({}, ...variant.options.map((o) => ({ [o.name]: o.default })), variant.presets[presetSelect.value] || {});
      const out = {};
      for (const option of variant.options) {
        const input = form.elements["option:" + option.name];
        let value;
        if (input.type === "checkbox") value = input.checked;
        else if (option.type === "int") value = Number(input.value);
        else if (option.type === "ladder") value = input.value.split(/[\s,]+/).filter(Boolean).map(Number);
        else value = option.choices && typeof option.choices[0] === "number" ? Number(input.value) : input.value;
        if (JSON.stringify(value) !== JSON.stringify(defaults[option.name])) out[option.name] = value;
      }
      return out;
    }

    form.elements.variant.addEventListener("change", drawOptions);
    presetSelect.addEventListener("change", applyPreset);
    drawOptions();

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = {};
      for (const key of ["variant", "bot", "preset"]) data[key] = form.elements[key].value;
      for (const key of ["players", "games", "turn_seconds", "stake"]) data[key] = Number(form.elements[key].value || 0);
      for (const key of ["competitive", "private", "daily"]) data[key] = form.elements[key].checked;
      data.options = chosenOptions();
      try {
        const state = await fetchJSON("/api/play/quick/", { method: "POST", body: data });
        window.location = options.tableUrl.replace("/0/", "/" + state.match + "/");
      } catch (error) {
        document.getElementById("quick-error").textContent = error.message;
      }
    });

    document.querySelectorAll("button[data-sit]").forEach((button) => button.addEventListener("click", async () => {
      try {
        await fetchJSON("/api/play/matches/" + button.dataset.sit + "/sit/", { method: "POST", body: {} });
        window.location = options.tableUrl.replace("/0/", "/" + button.dataset.sit + "/");
      } catch (error) {
        document.getElementById("tables-error").textContent = error.message;
      }
    }));
  }

  /* --- the table ------------------------------------------------------------------------ */
  function table(root) {
    const url = root.dataset.url;
    const board = document.getElementById("board");
    const actions = document.getElementById("actions");
    const statusLine = document.getElementById("status-line");
    const errorLine = document.getElementById("play-error");
    const summaryBox = document.getElementById("hand-summary");
    const overBox = document.getElementById("game-over");
    const clock = countdown(document.getElementById("countdown"));
    let busy = false;
    let timer = null;
    let epoch = 0;  // bumped by every action: a poll answered from before it is stale
    let seen = null;  // the hand summary the player has moved on from
    // The summary on screen: a poll that brings the same one leaves it alone (redrawing it
    // pulled its OK button from under the player's click).
    let drawnSummary = null;
    let last = null;  // the state drawn last

    async function act(action, seat) {
      if (busy) return;
      busy = true;
      epoch += 1;
      errorLine.textContent = "";
      if (last && last.hand_summary) seen = summaryKey(last);  // acting is moving on
      const body = { action: action, seat: seat };
      // The decision this answers (the state's `turn`): a stale one is a 409 and changes nothing.
      if (last && last.turn !== undefined && last.turn !== null) body.turn = last.turn;
      if (live.send({ type: "act", action: action, seat: seat, turn: body.turn })) {
        return;  // the host answers "acted" (or an error) and pushes the new state
      }
      try {
        render(await fetchJSON(url + "act/", { method: "POST", body: body }));
      } catch (error) {
        errorLine.textContent = error.message;
      } finally {
        busy = false;
      }
    }

    async function post(path, body) {
      epoch += 1;
      errorLine.textContent = "";
      try {
        const answer = await fetchJSON(url + path, { method: "POST", body: body || {} });
        render(answer.match !== undefined ? answer : await fetchJSON(url));
      } catch (error) {
        errorLine.textContent = error.message;
      }
    }
    const open = () => post("open/");

    function summaryKey(state) {
      const s = state.hand_summary;
      return s ? state.game.index + ":" + s.hand + ":" + (state.game_over ? "over" : "") : null;
    }

    function render(state) {
      last = state;
      const mine = state.you;
      const seat = state.your_turn ? state.to_act : mine[0];
      const observation = seat !== undefined ? state.observations[String(seat)] : null;
      statusLine.replaceChildren(...statusText(state));
      clock.set(state.your_turn ? state.seconds_left : null, state.settings.turn_seconds);
      if (state.table) {
        drawBoard(board, state, observation);
        board.hidden = false;
      } else {
        board.replaceChildren();
        board.hidden = true;
      }
      drawSummary(state);
      drawGameOver(state);
      drawActions(state, seat);
      drawTableLine(state);
      drawTableControls(state);
      drawGames(state);
    }

    function statusText(state) {
      const mine = state.you;
      const parts = [];
      const total = Math.max(state.game.scheduled, state.game.index + 1);
      const over = state.status === "done" || state.status === "cancelled";
      if (!over && state.waiting !== "next") parts.push(fmt(gettext("Game %(n)s of %(total)s"), { n: state.game.index + 1, total: total }) + " · ");
      let line = state.status === "done" ? gettext("The match is over.") :
        state.status === "cancelled" ? gettext("The match was ended amicably.") :
        state.waiting === "next" ? fmt(gettext("Game %(n)s is over: the table master deals the next one."), { n: state.game.finished }) :
        state.waiting === "start" ? (mine.length ? gettext("Your match is ready.") : gettext("The match has not started.")) :
        state.your_turn ? gettext("Your turn") : state.to_act === null ? "…" : fmt(gettext("Waiting for %(name)s"), { name: labelOf(state, state.to_act) });
      if (!mine.length) line += " " + gettext("(watching)");
      parts.push(el("strong", {}, line));
      if (noWorker(state)) parts.push(" · ", el("span", { class: "warning", id: "no-worker" }, gettext("no worker is running: the bots will answer slowly")));
      return parts;
    }

    function noWorker(state) {
      const w = state.workers;
      return w === false || (w && typeof w === "object" && w.alive === false);
    }

    function labelOf(state, seat) {
      const found = state.seats.find((s) => s.seat === seat);
      return found ? (found.label || found.name) : fmt(gettext("seat %(n)s"), { n: seat + 1 });
    }

    function teamLabel(state, team) {
      const seats = state.seats.filter((s) => s.team === team);
      if (seats.some((s) => state.you.includes(s.seat))) return seats.length > 1 ? gettext("your team") : gettext("You");
      return seats.map((s) => s.label || s.name).join(" & ");
    }

    /* The table from your chair: you at the bottom, the next to play on your right, your
       partner opposite, the last on your left (spectators sit in seat 0's chair). */
    function drawBoard(node, state, observation) {
      const view = state.table;
      const deck = view.deck;
      const manilhas = manilhasOf(view);
      const marked = (code, extra) => {
        const tile = card(code, deck, extra);
        if (code && manilhas.has(code)) {
          tile.classList.add("manilha");
          tile.title += " · " + (view.manilha_word || "manilha");
        }
        return tile;
      };
      const score = view.score || [0, 0];
      const stake = view.pending ? fmt(gettext("worth %(stake)s · %(pending)s proposed"), { stake: view.stake, pending: view.pending }) : fmt(gettext("worth %(stake)s"), { stake: view.stake });
      const head = el("div", { class: "row table-head" },
        el("span", { class: "score", id: "score" }, teamLabel(state, 0) + " " + score[0] + " · " + score[1] + " " + teamLabel(state, 1),
          el("small", {}, " " + fmt(gettext("(to %(target)s)"), { target: view.target }))),
        el("span", { class: "stake" }, fmt(gettext("Hand %(n)s"), { n: view.hand_no + 1 }) + " · " + stake),
        view.vira ? el("span", {}, gettext("vira") + " ", card(view.vira, deck)) : null,
        manilhas.size ? el("span", { class: "manilhas" }, (view.manilha_word || "manilha") + "s: ", [...manilhas].map((c) => marked(c))) : null,
        view.kind && view.kind !== "normal" ? el("span", { class: "last-action" }, view.kind === "iron" ? gettext("iron hand: nobody may raise") : fmt(gettext("a team is on the %(hand)s: no raises"), { hand: view.hand_of_n_word || gettext("hand of eleven") })) : null);
      const envido = drawEnvido(state);
      const me = state.you.length ? state.you[0] : 0;
      const n = view.players;
      const places = n === 2 ? ["bottom", "top"] : ["bottom", "right", "top", "left"];
      const ring = el("div", { class: "ring ring-" + n });
      for (let seat = 0; seat < n; seat++) {
        const place = places[(seat - me + n) % n];
        const info = state.seats.find((s) => s.seat === seat) || {};
        const held = observation && observation.seat === seat ? observation.hand :
          state.observations[String(seat)] ? state.observations[String(seat)].hand : null;
        const cards = held ? held.map((c) => marked(c)) :
          Array.from({ length: (view.hand_sizes || [])[seat] || 0 }, () => card(null, deck));
        const played = (view.trick || []).find(([s]) => s === seat);
        const tags = [];
        if (seat === view.dealer) tags.push(gettext("deals"));
        if (seat === view.mano) tags.push(view.deck.startsWith("spanish") ? "mano" : "mão");
        ring.append(el("div", {
          class: "seat place-" + place + (view.to_act === seat ? " to-act" : "") + (state.you.includes(seat) ? " you" : "") + (info.team === 1 ? " team-1" : " team-0"),
          "data-seat": seat,
        },
        el("div", { class: "name" }, info.label || info.name || "", tags.length ? el("small", {}, " (" + tags.join(", ") + ")") : null),
        el("div", { class: "hand" }, cards),
        el("div", { class: "played" }, played ? (played[2] ? card(null, deck, { class: "covered", title: gettext("covered") }) : marked(played[1])) : null)));
      }
      const tricks = el("div", { class: "row tricks" }, (view.tricks || []).map((trick, i) =>
        drawTrick(state, trick, marked, deck, trickLabel(state, i, view.results[i]))));
      const log = el("ol", { class: "log", id: "log" }, (state.log || []).map((line) =>
        el("li", {}, el("span", { class: "who" }, line.who), " ", line.text, line.card ? marked(line.card, { class: "small" }) : null)));
      fill(node, head, envido, ring, tricks, log);
    }

    /* The manilhas: the four cards of the rank the vira makes (strongest first: clubs, hearts,
       spades, diamonds), or the variant's fixed ones (Mineiro), named by the page. */
    function manilhasOf(view) {
      if (view.manilha_rank) return new Set(["c", "h", "s", "d"].map((suit) => view.manilha_rank + suit));
      return new Set((root.dataset.manilhas || "").split(" ").filter(Boolean));
    }

    function trickLabel(state, i, result) {
      if (result === undefined) return fmt(gettext("trick %(n)s"), { n: i + 1 });
      if (result === -1) return fmt(gettext("trick %(n)s: tied"), { n: i + 1 });
      return fmt(gettext("trick %(n)s: %(team)s"), { n: i + 1, team: teamLabel(state, result) });
    }

    /* names: the labels of that trick's seats when they are not the table's now (a summary). */
    function drawTrick(state, plays, marked, deck, label, names) {
      return el("div", { class: "trick" }, el("span", { class: "who" }, label),
        plays.map(([seat, code, covered]) => el("span", {},
          covered ? card(null, deck, { class: "covered" }) : marked(code),
          el("span", { class: "who" }, names && names[String(seat)] ? names[String(seat)] : labelOf(state, seat)))));
    }

    function drawEnvido(state) {
      const e = state.envido;
      if (!e) return null;
      const parts = [];
      const yours = Object.values(e.yours || {});
      if (yours.length) parts.push(fmt(gettext("Your envido: %(points)s"), { points: yours[0] }));
      if (e.calls.length) {
        const words = e.calls.map((c) => c.replace("_", " ")).join(" + ");
        const status = { pending: gettext("waiting for an answer"), accepted: "quiero", refused: "no quiero", void: gettext("void: a flor was declared") }[e.status] || "";
        parts.push(words + " · " + status);
      }
      if (e.shown) parts.push(fmt(gettext("%(who)s won the envido with %(points)s"), { who: e.shown.who, points: e.shown.points }));
      if (e.flor.length) parts.push(fmt(gettext("flor: %(who)s"), { who: e.flor.join(", ") }));
      return parts.length ? el("div", { class: "envido", id: "envido" }, parts.join(" · ")) : null;
    }

    /* The last hand's summary stays until the player moves on (OK, or their next action). */
    function drawSummary(state) {
      const s = state.hand_summary;
      const key = summaryKey(state);
      if (!s || key === seen) { summaryBox.hidden = true; summaryBox.replaceChildren(); drawnSummary = null; return; }
      summaryBox.hidden = false;
      if (drawnSummary === key) return;
      drawnSummary = key;
      const deck = state.table ? state.table.deck : state.tournament.deck;
      fill(summaryBox,
        el("h2", {}, s.headline),
        s.reasons.length ? el("ul", {}, s.reasons.map((r) => el("li", {}, r))) : null,
        s.tricks.length === 0 ? null : el("div", { class: "row tricks" }, s.tricks.map((trick, i) =>
          drawTrick(state, trick, (c) => card(c, deck), deck,
            s.trick_winners[i] === undefined ? fmt(gettext("trick %(n)s"), { n: i + 1 }) : fmt(gettext("trick %(n)s: %(team)s"), { n: i + 1, team: s.trick_winners[i] }),
            s.seats))),
        state.game_over ? null : el("button", { class: "bet", id: "summary-ok", onclick: () => { seen = key; drawSummary(state); } }, gettext("OK, next hand")));
    }

    /* The end of a game: who won, the final score, its replay, the next game or a rematch. */
    function drawGameOver(state) {
      const g = state.game_over;
      if (!g) { overBox.hidden = true; overBox.replaceChildren(); return; }
      overBox.hidden = false;
      const master = state.settings.master;
      const buttons = [];
      if (master && master.id === me(state) && state.waiting === "next") buttons.push(el("button", { class: "bet", onclick: open }, gettext("Deal the next game")));
      if (state.rematch) buttons.push(el("button", { class: "bet", id: "rematch", onclick: rematch }, gettext("Rematch")));
      buttons.push(el("a", { href: "/play/" }, gettext("Back to the tables")));
      overBox.className = "game-over" + (g.you_won ? " won" : g.you_lost ? " lost" : "");
      const w = g.score[1] > g.score[0] ? 1 : 0;
      fill(overBox,
        el("h2", { id: "winner" }, g.headline),
        // Winner first, as the headline gives the score ("heuristic won the game, 13-0").
        el("p", { class: "score", id: "final-score" }, g.teams[w] + " " + g.score[w] + " · " + g.score[1 - w] + " " + g.teams[1 - w]),
        g.termination !== "normal" ? el("p", { class: "meta" }, gettext(g.termination)) : null,
        g.replay ? el("p", {}, el("a", { href: g.replay, id: "replay-link" }, gettext("Watch the replay of this game"))) :
          el("p", { class: "meta" }, gettext("The replay is ready once the match ends.")),
        el("div", { class: "actions" }, buttons));
    }

    async function rematch() {
      try {
        const fresh = await fetchJSON("/api/play/quick/", { method: "POST", body: last.rematch });
        window.location = window.location.pathname.replace(/\/\d+\/$/, "/" + fresh.match + "/");
      } catch (error) {
        errorLine.textContent = error.message;
      }
    }

    function me(state) {
      const seat = state.seats.find((s) => state.you.includes(s.seat));
      return seat ? seat.player : null;
    }

    function drawTableLine(state) {
      const o = state.settings;
      const parts = [o.competitive ? gettext("Competitive") : gettext("Practice")];
      if (o.competitive && o.stake) parts.push(fmt(gettext("stake %(n)s chips a game"), { n: o.stake }));
      if (o.daily) parts.push(gettext("today's deals"));
      if (o.private) parts.push(gettext("private"));
      if (o.master) parts.push(fmt(gettext("table master: %(name)s"), { name: o.master.name }));
      document.getElementById("table-line").textContent = parts.join(" · ");
    }

    /* A player's own table: take a free seat, deal (the master), vote to end amicably. */
    function drawTableControls(state) {
      const controls = document.getElementById("table-controls");
      controls.replaceChildren();
      const master = state.settings.master;
      const mine = state.you.length > 0;
      const between = state.status === "pending" || state.waiting === "next";
      if (!mine && state.free_seats > 0 && between) {
        controls.append(el("button", { onclick: () => post("sit/") }, gettext("Take a seat")));
      }
      if (master && master.id === me(state) && state.waiting === "next" && !state.game_over) {
        controls.append(el("button", { class: "bet", onclick: open }, gettext("Deal the next game")));
      }
      const vote = state.end_vote;
      if (mine && vote && vote.voters.length) {
        const agreed = vote.agreed.some((p) => state.seats.some((s) => s.player === p && state.you.includes(s.seat)));
        const label = (agreed ? gettext("Withdraw: keep playing") : gettext("Propose to end amicably")) + " (" + vote.agreed.length + "/" + vote.voters.length + ")";
        controls.append(el("button", { onclick: () => post("end-vote/", { agree: !agreed }) }, label));
      }
    }

    /* Your choices: your cards (play, or cover: face down), then bets, then answers, apart. */
    function drawActions(state, seat) {
      // Redrawn only when the choices change: a poll that redraws the same buttons would pull
      // one from under a player's click.
      const list = state.your_turn ? (state.choices || {})[String(seat)] : null;
      const key = JSON.stringify([state.turn, state.status, state.waiting, seat, list,
        state.settings && state.settings.master, state.you]);
      if (actions.dataset.key === key) return;
      actions.dataset.key = key;
      actions.replaceChildren();
      if (state.waiting === "start" && state.you.length && state.status === "pending") {
        const master = state.settings.master;
        if (!master) actions.append(el("button", { class: "bet", onclick: open }, gettext("Sit down and start")));
        else if (master.id === me(state)) actions.append(el("button", { class: "bet", onclick: open }, gettext("Deal the first game")));
        return;
      }
      if (!list) return;
      const deck = state.table ? state.table.deck : "";
      const manilhas = state.table ? manilhasOf(state.table) : new Set();
      const groups = { card: [], bet: [], answer: [], other: [] };
      const hand = ((state.observations || {})[String(seat)] || {}).hand || [];
      const inHand = (code) => (hand.indexOf(code) < 0 ? hand.length : hand.indexOf(code));
      const covers = {};
      for (const c of list) if (c.action.startsWith("cover ")) covers[c.label] = c;
      for (const c of list) {
        if (c.action.startsWith("cover ")) continue;
        if (c.action.startsWith("play ") && !c.label.startsWith("#")) {
          const tile = card(c.label, deck, { tag: "button", class: manilhas.has(c.label) ? "manilha" : "", onclick: () => act(c.action, seat), "data-action": c.action, title: c.hint });
          const cover = covers[c.label];
          groups.card.push(el("div", { class: "card-choice", "data-hand": inHand(c.label) }, tile,
            cover ? el("button", { class: "cover", "data-action": cover.action, title: cover.hint, onclick: () => act(cover.action, seat) }, gettext("cover")) : null));
        } else {
          const cls = c.group === "card" ? "play-slot" : c.group === "answer" ? (c.action === "refuse" ? "answer refuse" : "answer") : c.group === "other" ? "other" : "bet";
          groups[c.group].push(el("button", { class: cls, "data-action": c.action, onclick: () => act(c.action, seat) },
            el("span", { class: "label" }, c.label), c.hint ? el("small", {}, c.hint) : null));
        }
      }
      // The card buttons in the order of the cards in your hand on the board (not the legal
      // actions' sorted order): the same cards, read the same way.
      groups.card.sort((a, b) => Number(a.dataset.hand) - Number(b.dataset.hand));
      const titles = { card: gettext("Your cards"), bet: gettext("Bets"), answer: gettext("Answer"), other: gettext("Other") };
      for (const [group, nodes] of Object.entries(groups)) {
        if (nodes.length) actions.append(el("fieldset", { class: "group group-" + group }, el("legend", {}, titles[group]), nodes));
      }
    }

    function drawGames(state) {
      const games = document.getElementById("games");
      if (!state.games.length) { games.replaceChildren(); return; }
      games.replaceChildren(el("h2", {}, gettext("Games")), el("ul", {}, state.games.map((g) =>
        el("li", {}, fmt(gettext("Game %(n)s"), { n: g.index + 1 }) + ": " + g.points_a + "-" + g.points_b +
          (g.termination !== "normal" ? " (" + gettext(g.termination) + ")" : "")))));
    }

    const chat = chatBox(url, () => live.isOpen());
    const liveLine = document.getElementById("live-line");
    let stopped = false;  // forbidden or gone: nothing more to hear

    // The push channel: every change of the table as it happens. While it is down the page
    // polls the API, says so, and connects again.
    const live = pushChannel(root.dataset.ws, {
      up() {
        liveLine.hidden = true;
        clearTimeout(timer);  // no polling while the state is pushed
      },
      down(closedForGood, notDealt) {
        if (closedForGood) { stopped = true; return; }
        // Not dealt yet: nothing is pushed until it is; the page polls, and says nothing.
        liveLine.hidden = Boolean(notDealt);
        liveLine.textContent = gettext("Reconnecting… the table updates every few seconds meanwhile.");
        busy = false;
        schedule();
      },
      message(message) {
        if (message.type === "state") render(message.state);
        else if (message.type === "acted") busy = false;
        else if (message.type === "chat") chat.add([message.message]);
        else if (message.type === "error") {
          busy = false;
          errorLine.textContent = messageOf({ detail: message.detail });
        }
      },
    });

    function schedule() {
      clearTimeout(timer);
      if (!stopped && !live.isOpen()) timer = setTimeout(poll, POLL_MS);
    }

    async function poll() {
      try {
        const asked = epoch;
        const state = await fetchJSON(url);
        if (!busy && asked === epoch) render(state);
        if (state.status === "done" || state.status === "cancelled") return;
      } catch (error) {
        errorLine.textContent = messageOf({ detail: error.message });
        if (error.status === 403 || error.status === 404) { stopped = true; return; }
      }
      schedule();
    }
    poll();  // the first state at once, whatever the push channel does
    return () => { stopped = true; clearTimeout(timer); live.close(); chat.stop(); clock.stop(); };
  }

  /* A WebSocket to the table (tables/push.py) that connects again after a drop, waiting a little
     longer each time (up to 15 s). `send` says whether the message went out. */
  function pushChannel(path, handlers) {
    let socket = null;
    let wait = 500;
    let closed = false;
    let retry = null;
    function connect() {
      if (closed || !path || !window.WebSocket) { handlers.down(false); return; }
      const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + window.location.host + path);
      socket.onopen = () => { wait = 500; handlers.up(); };
      socket.onmessage = (event) => {
        try { handlers.message(JSON.parse(event.data)); } catch (error) { /* not ours: ignored */ }
      };
      socket.onclose = (event) => {
        socket = null;
        if (closed) return;
        // 4403: not yours to watch; 4404: no such table, or over. 4409: not dealt yet, connect
        // again in a while. Anything else: connect again, waiting longer each time.
        if (event.code === 4403 || event.code === 4404) { handlers.down(true); return; }
        if (event.code === 4409) {
          handlers.down(false, true);
          retry = setTimeout(connect, 5000);
          return;
        }
        handlers.down(false);
        retry = setTimeout(connect, wait);
        wait = Math.min(15000, wait * 2);
      };
    }
    connect();
    return {
      isOpen: () => socket !== null && socket.readyState === WebSocket.OPEN,
      send(message) {
        if (socket === null || socket.readyState !== WebSocket.OPEN) return false;
        socket.send(JSON.stringify(message));
        return true;
      },
      close() { closed = true; clearTimeout(retry); if (socket) socket.close(); },
    };
  }

  /* The turn's countdown as a bar that empties, ticking between two polls; red near the end. */
  function countdown(node) {
    let deadline = null;
    let total = 60;
    const bar = el("div", { class: "bar" });
    const text = el("span", { class: "seconds" });
    node.replaceChildren(bar, text);
    function tick() {
      if (deadline === null) { node.hidden = true; return; }
      const left = Math.max(0, (deadline - Date.now()) / 1000);
      node.hidden = false;
      bar.style.width = Math.min(100, (100 * left) / total) + "%";
      node.classList.toggle("low", left <= Math.min(10, total / 3));
      text.textContent = fmt(gettext("%(n)s s left"), { n: Math.ceil(left) });
    }
    const interval = setInterval(tick, 250);
    return {
      set(secondsLeft, turnSeconds) {
        deadline = secondsLeft === null || secondsLeft === undefined || !turnSeconds ? null : Date.now() + secondsLeft * 1000;
        total = turnSeconds || 60;
        tick();
      },
      stop() { clearInterval(interval); },
    };
  }

  /* The table's chat: messages are written as text, never parsed as markup. */
  function chatBox(url, pushed) {
    const section = document.getElementById("chat");
    const lines = document.getElementById("chat-lines");
    const form = document.getElementById("chat-form");
    let last = 0;
    let timer = null;

    function drawChat(messages) {
      for (const m of messages) {
        last = Math.max(last, m.id);
        lines.append(el("li", { class: m.player ? "player" : "spectator" },
          el("span", { class: "who" }, m.author), m.text));
      }
      if (messages.length) lines.scrollTop = lines.scrollHeight;
    }

    let loaded = false;
    async function refresh() {
      // The history once; then new lines are pushed, and polled only while the push is down.
      if (!loaded || !pushed()) {
        try {
          drawChat(await fetchJSON(url + "chat/" + (last ? "?after=" + last : "")));
          section.hidden = false;
          loaded = true;
        } catch (error) {
          if (error.status === 403 || error.status === 404) return;  // no chat for us here
        }
      }
      timer = setTimeout(refresh, POLL_MS * 2);
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = form.elements.text;
      try {
        await fetchJSON(url + "chat/", { method: "POST", body: { text: input.value } });
        input.value = "";
        clearTimeout(timer);
        refresh();
      } catch (error) {
        document.getElementById("play-error").textContent = error.message;
      }
    });
    refresh();
    return {
      stop: () => clearTimeout(timer),
      add: (messages) => drawChat(messages.filter((m) => m.id > last)),
    };
  }

  window.Arena.lobby = lobby;
  window.Arena.table = table;
})();
