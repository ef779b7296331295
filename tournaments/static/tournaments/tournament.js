/* A tournament's page: while it runs, poll the API every few seconds and redraw the progress,
   the standings and the bracket: the slices of them the page shows (its pagers: 50 standings
   rows, 64 matches), never the whole of a 1,024-entrant Swiss. */
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  // Messages are marked with gettext() where they are written, so makemessages finds them.
  const fmt = (s, values) => (window.interpolate ? window.interpolate(s, values, true) : s);
  const { fetchJSON, el } = window.Arena;
  const POLL_MS = 3000;

  function number(value) {
    if (value === undefined || value === null) return "";
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
  }

  // The rows of `list` the page shows: its slice {offset, limit}, or all of them.
  function sliceOf(list, shown) {
    return shown ? list.slice(shown.offset, shown.offset + shown.limit) : list;
  }

  function drawStandings(table, standings, shown) {
    const head = el("tr", {}, el("th", {}, "#"), el("th", {}, "Entrant"),
      (standings.metric_labels || standings.metrics).map((label) => el("th", {}, label)),
      el("th", {}, "Rating"));
    const rows = sliceOf(standings.rows, shown).map((row) => el("tr", {},
      el("td", {}, row.rank), el("td", {}, row.entrant.name),
      standings.metrics.map((m) => el("td", {}, number(row.values[m]))),
      el("td", {}, row.rating || "-")));
    table.replaceChildren(el("thead", {}, head), el("tbody", {}, rows));
  }

  function drawBracket(container, bracket, matchUrl) {
    container.replaceChildren();
    for (const section of bracket.sections) {
      if (bracket.kind === "bracket") container.append(el("h3", {}, section.name));
      container.append(el("div", { class: "arena-bracket" }, section.rounds.map((round) =>
        el("div", { class: "arena-round" }, el("h4", {}, fmt(gettext("Round %(n)s"), { n: round.number })),
          el("div", { class: "arena-matches" },
            round.matches.map((m) => el("div", { class: "arena-match arena-" + m.status, "data-key": m.key, "data-next": m.next || null },
              el("div", { class: "arena-key" },
                m.match ? el("a", { href: matchUrl.replace("/0/", "/" + m.match + "/") }, m.key) : m.key,
                " · " + m.status),
              side(m, m.a, m.a_label, 0), side(m, m.b, m.b_label, 1),
              m.tiebreak ? el("div", { class: "arena-tiebreak" }, m.tiebreak) : "")))))));
    }
    if (!bracket.sections.length) container.append(el("p", {}, gettext("No matches yet.")));
    if (window.Arena.drawBracketLines) window.Arena.drawBracketLines(container);
  }

  function side(m, entrant, label, i) {
    const won = m.winner && entrant && m.winner === entrant.id;
    return el("div", { class: "arena-side" + (won ? " arena-winner" : "") },
      el("span", { class: "arena-name" }, label), " ",
      el("span", { class: "arena-score" }, m.games_played && !(i === 1 && m.is_bye) ? m.wins[i] : ""));
  }

  function drawRoundLinks(rounds, shown) {
    const nav = document.getElementById("rounds-nav");
    if (!nav) return;
    // A round's link keeps the other pagers (standings, entrants); its matches from the first.
    const link = (n) => {
      const query = new URLSearchParams(window.location.search);
      query.set("round", n);
      query.delete("matches_page");
      return "?" + query.toString();
    };
    nav.replaceChildren(gettext("Round") + ": ", ...rounds.map((n) => [
      n === shown ? el("strong", {}, n) : el("a", { href: link(n) }, n), " "]).flat());
  }

  // "live" only while a worker is there to play the matches; else say so (workers: null when
  // the check is off or nothing is waiting, {alive: false, detail} when no worker consumes).
  function showWorkers(workers) {
    const live = document.getElementById("live");
    if (!live || !workers) return;
    const missing = workers.alive === false;
    live.className = missing ? "warning" : "live";
    live.title = missing ? (workers.detail || "") : "";
    live.textContent = missing ? gettext("no worker is running: the matches wait") : gettext("live");
  }

  function followTournament(options) {
    if (!options.live) return;
    const base = "/api/tournaments/" + options.id + "/";
    let round = options.round;
    // The standings and the page's matches (the API's page of the bracket at the same place:
    // its order is the page's), in one request a look: hundreds of people follow at once.
    const liveUrl = () => {
      const query = new URLSearchParams();
      if (round) query.set("round", round);
      if (options.matches) {
        query.set("limit", options.matches.limit);
        query.set("offset", options.matches.offset);
      }
      return base + "live/?" + query.toString();
    };
    // A tab in the background asks nothing; shown again, it asks at once.
    let waiting = null, asking = false, over = false;
    async function tick() {
      waiting = null;
      if (over || asking || document.hidden) return;
      asking = true;
      try {
        let { standings, bracket } = await fetchJSON(liveUrl());
        const latest = bracket.rounds.length ? bracket.rounds[bracket.rounds.length - 1] : null;
        if (round && options.followLatest && latest && latest !== round) {
          round = latest;  // a new round was paired: follow it
          ({ standings, bracket } = await fetchJSON(liveUrl()));
        }
        if (bracket.kind === "rounds") drawRoundLinks(bracket.rounds, round);
        const p = standings.progress;
        const bar = document.getElementById("progress");
        bar.max = p.total || 1;
        bar.value = p.done;
        document.getElementById("progress-text").textContent =
          fmt(gettext("%(done)s of %(total)s matches played"), { done: p.done, total: p.total === null ? "?" : p.total });
        const status = document.getElementById("status");
        status.textContent = standings.status;
        status.className = "status status-" + standings.status;
        showWorkers(standings.workers);
        drawStandings(document.getElementById("standings"), standings, options.standings);
        drawBracket(document.getElementById("bracket"), bracket, options.matchUrl);
        if (standings.status !== "running" && standings.status !== "paused") {
          const live = document.getElementById("live");
          if (live) live.remove();
          over = true;  // finished: nothing more will change
        }
      } catch (e) {
        /* a failed poll is retried at the next tick */
      } finally {
        asking = false;
      }
      if (!over) waiting = setTimeout(tick, POLL_MS);
    }
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && waiting === null) tick();
    });
    waiting = setTimeout(tick, POLL_MS);
  }

  window.Arena.followTournament = followTournament;
})();
