/* Human play: the lobby (your matches, practice games) and the table, which polls the API and
   offers your seat's legal actions. */
(function () {
  "use strict";
  const { fetchJSON, el, card, drawTable, messageOf } = window.Arena;
  const POLL_MS = 1500;

  function lobby(options) {
    const table = document.getElementById("my-matches");
    fetchJSON("/api/play/matches/").then((matches) => {
      const rows = matches.map((m) => el("tr", {},
        el("td", {}, el("a", { href: options.tableUrl.replace("/0/", "/" + m.match + "/") }, m.tournament_name + " · " + m.key)),
        el("td", {}, "v " + m.opponent),
        el("td", {}, m.variant),
        el("td", {}, m.status === "done" ? "finished" : m.your_turn ? "your turn" : m.waiting === "start" ? "ready to start" : m.waiting === "next" ? "between games" : m.status)));
      table.replaceChildren(el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", {}, "No matches yet."))));
    }).catch(() => table.replaceChildren(el("tbody", {}, el("tr", {}, el("td", {}, "Could not load your matches.")))));

    const form = document.getElementById("quick");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = Object.fromEntries(new FormData(form).entries());
      ["players", "games", "turn_seconds", "stake"].forEach((k) => { data[k] = Number(data[k] || 0); });
      ["competitive", "private", "daily"].forEach((k) => { data[k] = form.elements[k].checked; });
      try {
        const state = await fetchJSON("/api/play/quick/", { method: "POST", body: data });
        window.location = options.tableUrl.replace("/0/", "/" + state.match + "/");
      } catch (error) {
        document.getElementById("quick-error").textContent = error.message;
      }
    });
  }

  function table(root) {
    const url = root.dataset.url;
    const board = document.getElementById("board");
    const actions = document.getElementById("actions");
    const statusLine = document.getElementById("status-line");
    const errorLine = document.getElementById("play-error");
    let busy = false;
    let timer = null;
    let epoch = 0;  // bumped by every action: a poll answered from before it is stale
    let shown = null;  // the state on screen: an action names its `turn` (a stale one is a 409)

    async function act(action, seat) {
      if (busy) return;
      busy = true;
      epoch += 1;
      errorLine.textContent = "";
      try {
        render(await fetchJSON(url + "act/", { method: "POST", body: { action: action, seat: seat, turn: shown && shown.turn } }));
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

    function render(state) {
      shown = state;
      const mine = state.you;
      const seat = state.your_turn ? state.to_act : mine[0];
      const observation = seat !== undefined ? state.observations[String(seat)] : null;
      let line = state.status === "done" ? "The match is over." :
        state.status === "cancelled" ? "The match was ended amicably." :
        state.waiting === "next" ? "Between games: the table master deals the next one." :
        state.waiting === "start" ? (mine.length ? "Your match is ready." : "The match has not started.") :
        state.your_turn ? "Your turn" : state.to_act === null ? "…" : "Waiting for " + window.Arena.seatName(state.seats, state.to_act);
      if (state.seconds_left !== null && state.your_turn) line += " · " + Math.ceil(state.seconds_left) + " s left";
      if (!mine.length) line += " (watching)";
      statusLine.textContent = "Game " + (state.game.index + 1) + " · " + line;
      if (state.table) {
        const hands = {};
        if (observation) hands[seat] = observation.hand;
        for (const s of mine) if (state.observations[String(s)]) hands[s] = state.observations[String(s)].hand;
        drawTable(board, state.table, { seats: state.seats, you: mine, hands: hands });
      } else {
        board.replaceChildren(el("div", {}, state.result ? "Result: " + state.result.wins_a + "-" + state.result.wins_b : ""));
      }
      drawActions(state, observation, seat);
      drawTableLine(state);
      drawTableControls(state);
      drawGames(state);
    }

    function me(state) {
      const seat = state.seats.find((s) => state.you.includes(s.seat));
      return seat ? seat.player : null;
    }

    function drawTableLine(state) {
      const o = state.settings;
      const parts = [o.competitive ? "Competitive" : "Practice"];
      if (o.competitive && o.stake) parts.push("stake " + o.stake + " chips a game");
      if (o.daily) parts.push("today's deals");
      if (o.private) parts.push("private");
      if (o.master) parts.push("table master: " + o.master.name);
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
        controls.append(el("button", { onclick: () => post("sit/") }, "Take a seat"));
      }
      if (master && master.id === me(state) && state.waiting === "next") {
        controls.append(el("button", { class: "bet", onclick: open }, "Deal the next game"));
      }
      const vote = state.end_vote;
      if (mine && vote && vote.voters.length) {
        const agreed = vote.agreed.some((p) => state.seats.some((s) => s.player === p && state.you.includes(s.seat)));
        const label = (agreed ? "Withdraw: keep playing" : "Propose to end amicably") + " (" + vote.agreed.length + "/" + vote.voters.length + ")";
        controls.append(el("button", { onclick: () => post("end-vote/", { agree: !agreed }) }, label));
      }
    }

    function drawActions(state, observation, seat) {
      actions.replaceChildren();
      if (state.waiting === "start" && state.you.length && state.status === "pending") {
        const master = state.settings.master;
        if (!master) actions.append(el("button", { class: "bet", onclick: open }, "Sit down and start"));
        else if (master.id === me(state)) actions.append(el("button", { class: "bet", onclick: open }, "Deal the first game"));
        return;
      }
      if (!state.your_turn || !observation) return;
      const deck = state.table ? state.table.deck : "";
      for (const action of observation.legal) {
        const [verb, rest] = [action.split(" ")[0], action.split(" ").slice(1).join(" ")];
        if ((verb === "play" || verb === "cover") && rest && !rest.includes(" ")) {
          const tile = card(rest, deck, { tag: "button", onclick: () => act(action, seat), "data-action": action });
          actions.append(verb === "cover" ? el("span", {}, "cover ", tile) : tile);
        } else {
          actions.append(el("button", { class: "bet", "data-action": action, onclick: () => act(action, seat) }, action.replace("_", " ")));
        }
      }
    }

    function drawGames(state) {
      const games = document.getElementById("games");
      if (!state.games.length) { games.replaceChildren(); return; }
      games.replaceChildren(el("h2", {}, "Games"), el("ul", {}, state.games.map((g) =>
        el("li", {}, "Game " + (g.index + 1) + ": " + g.points_a + "-" + g.points_b +
          (g.termination !== "normal" ? " (" + g.termination + ")" : "")))));
    }

    const chat = chatBox(url);

    async function poll() {
      try {
        const asked = epoch;
        const state = await fetchJSON(url);
        if (!busy && asked === epoch) render(state);
        if (state.status === "done" || state.status === "cancelled") return;
      } catch (error) {
        errorLine.textContent = messageOf({ detail: error.message });
        if (error.status === 403 || error.status === 404) return;
      }
      timer = setTimeout(poll, POLL_MS);
    }
    poll();
    return () => { clearTimeout(timer); chat.stop(); };
  }

  /* The table's chat: messages are written as text, never parsed as markup. */
  function chatBox(url) {
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

    async function refresh() {
      try {
        drawChat(await fetchJSON(url + "chat/" + (last ? "?after=" + last : "")));
        section.hidden = false;
      } catch (error) {
        if (error.status === 403 || error.status === 404) return;  // no chat for us here
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
    return { stop: () => clearTimeout(timer) };
  }

  window.Arena.lobby = lobby;
  window.Arena.table = table;
})();
