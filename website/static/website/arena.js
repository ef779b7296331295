/* Shared helpers for the pages: fetching the API and drawing cards. */
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  // Messages are marked with gettext() where they are written, so makemessages finds them.
  const fmt = (s, values) => (window.interpolate ? window.interpolate(s, values, true) : s);
  const SUITS = {
    french: { c: ["♣", false, "clubs"], h: ["♥", true, "hearts"], s: ["♠", false, "spades"], d: ["♦", true, "diamonds"] },
    spanish: { e: ["esp", false, "espadas"], b: ["bas", false, "bastos"], o: ["oro", true, "oros"], c: ["cop", true, "copas"] },
  };

  function cookie(name) {
    const found = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
    return found ? decodeURIComponent(found.split("=")[1]) : "";
  }

  async function fetchJSON(url, options) {
    const init = Object.assign({ headers: {}, credentials: "same-origin" }, options || {});
    if (init.body && typeof init.body !== "string") {
      init.body = JSON.stringify(init.body);
      init.headers["Content-Type"] = "application/json";
    }
    if (init.method && init.method !== "GET") init.headers["X-CSRFToken"] = cookie("csrftoken");
    const response = await fetch(url, init);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const error = new Error(messageOf(data) || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function messageOf(data) {
    if (!data) return "";
    if (typeof data === "string") return data;
    if (data.detail) return String(data.detail);
    return Object.entries(data).map(([k, v]) => k + ": " + [].concat(v).join(" ")).join("; ");
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /* A card as a tile: "4c" -> 4♣ (French), "12c" -> 12 copas (Spanish); null -> its back. */
  function card(code, deck, extra) {
    const attrs = Object.assign({}, extra || {});
    if (!code || code.startsWith("#")) {
      attrs.class = "card back " + (attrs.class || "");
      attrs.title = code ? "slot " + code.slice(1) : "hidden";
      return el(attrs.tag || "span", attrs, "?");
    }
    const family = (deck || "").startsWith("spanish") ? SUITS.spanish : SUITS.french;
    const suit = family[code.slice(-1)] || [code.slice(-1), false, code.slice(-1)];
    const rank = code.slice(0, -1);
    attrs.class = "card" + (suit[1] ? " red" : "") + " " + (attrs.class || "");
    attrs.title = rank + " of " + suit[2];
    attrs["data-card"] = code;
    const tag = attrs.tag || "span";
    delete attrs.tag;
    return el(tag, attrs, rank, family === SUITS.spanish ? el("small", {}, suit[0]) : suit[0]);
  }

  /* The card of the moment: a page module may replace Arena.card (card_faces.js draws faces),
     and the table drawn here follows it. */
  const currentCard = (code, deck, extra) => window.Arena.card(code, deck, extra);

  function seatName(seats, seat) {
    const found = (seats || []).find((s) => s.seat === seat);
    return found ? found.name : "seat " + seat;
  }

  /* The table as a spectator sees it (view: tables.public_view), with `hands` when shown. */
  function drawTable(board, view, options) {
    const opts = options || {};
    const deck = view.deck;
    board.replaceChildren();
    const teams = view.score || [0, 0];
    board.append(el("div", { class: "row" },
      el("span", { class: "score" }, fmt(gettext("Team 0: %(a)s · Team 1: %(b)s"), { a: teams[0], b: teams[1] })),
      el("span", {}, fmt(gettext("hand %(n)s · worth %(stake)s"), { n: view.hand_no + 1, stake: view.stake }) + (view.pending ? " " + fmt(gettext("(%(n)s proposed)"), { n: view.pending }) : "")),
      view.vira ? el("span", {}, gettext("vira") + " ", currentCard(view.vira, deck)) : null,
      view.kind && view.kind !== "normal" ? el("span", { class: "last-action" }, view.kind === "iron" ? gettext("iron hand") : fmt(gettext("hand of %(n)s"), { n: view.target - 1 })) : null,
      view.winner !== null && view.winner !== undefined ? el("span", { class: "last-action" }, fmt(gettext("Team %(n)s wins the game"), { n: view.winner })) : null,
    ));
    const seatsRow = el("div", { class: "row" });
    for (let seat = 0; seat < view.players; seat++) {
      const cards = [];
      const shown = view.hands ? view.hands[seat] : opts.hands && opts.hands[seat];
      if (shown) shown.forEach((c) => cards.push(currentCard(c, deck)));
      else for (let i = 0; i < (view.hand_sizes || [])[seat]; i++) cards.push(currentCard(null, deck));
      seatsRow.append(el("div", {
        class: "seat" + (view.to_act === seat ? " to-act" : "") + ((opts.you || []).includes(seat) ? " you" : ""),
      },
      el("div", { class: "name" }, seatName(opts.seats, seat), " ", el("small", {}, "(" + fmt(gettext("team %(n)s"), { n: seat % 2 }) + (seat === view.dealer ? ", " + gettext("deals") : "") + (seat === view.mano ? ", mão" : "") + ")")),
      el("div", {}, cards)));
    }
    board.append(seatsRow);
    const tricks = el("div", { class: "row" });
    (view.tricks || []).forEach((trick, i) => tricks.append(drawTrick(trick, deck, opts.seats, fmt(gettext("trick %(n)s"), { n: i + 1 }) + ": " + resultText(view.results[i])))); 
    if ((view.trick || []).length) tricks.append(drawTrick(view.trick, deck, opts.seats, gettext("on the table")));
    board.append(tricks);
    if (opts.lastAction) board.append(el("div", { class: "last-action" }, opts.lastAction));
    const history = (view.history || []).map(([s, a]) => seatName(opts.seats, s) + ": " + a).join(" · ");
    if (history) board.append(el("div", { class: "history" }, history));
  }

  function resultText(result) {
    return result === -1 || result === undefined ? gettext("tied") : fmt(gettext("team %(n)s"), { n: result });
  }

  function drawTrick(plays, deck, seats, label) {
    return el("div", { class: "trick" }, el("span", { class: "who" }, label),
      plays.map(([seat, code, covered]) => el("span", {},
        currentCard(covered ? null : code, deck, covered ? { class: "covered" } : {}),
        el("span", { class: "who" }, seatName(seats, seat)))));
  }

  window.Arena = Object.assign(window.Arena || {}, { fetchJSON, el, card, drawTable, seatName, messageOf });
})();
