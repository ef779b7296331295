/* Card faces drawn as SVG by us (no image set to license): the French deck's pips and court
   cards, the Spanish deck's oros, copas, espadas and bastos. Loaded right after arena.js, it
   wraps Arena.card, so every page that draws cards through it (the replay, the play table,
   whose play.js takes Arena.card when it loads) shows faces with no change of its own. The
   tile keeps its text (rank and suit) for screen readers, its `title` and `data-card`, and says
   what it is with role="img" and an aria-label ("7 of hearts", "12 of copas"). */
(function () {
  "use strict";
  const Arena = window.Arena;
  if (!Arena || !Arena.card) return;
  const plainCard = Arena.card;
  const SVG = "http://www.w3.org/2000/svg";
  const FRENCH = { c: ["♣", "#1d2433", "clubs"], h: ["♥", "#c0262d", "hearts"], s: ["♠", "#1d2433", "spades"], d: ["♦", "#c0262d", "diamonds"] };
  const SPANISH = { o: ["#d69e2e", "oros"], c: ["#c0262d", "copas"], e: ["#1f4e9c", "espadas"], b: ["#2f7d32", "bastos"] };
  const COURT = { J: "J", Q: "Q", K: "K", 10: "S", 11: "C", 12: "R" };
  // Where the pips go on a 60 x 84 face, by count (the French and the Spanish alike).
  const PIPS = {
    1: [[30, 42]],
    2: [[30, 22], [30, 62]],
    3: [[30, 20], [30, 42], [30, 64]],
    4: [[20, 24], [40, 24], [20, 60], [40, 60]],
    5: [[20, 22], [40, 22], [30, 42], [20, 62], [40, 62]],
    6: [[20, 20], [40, 20], [20, 42], [40, 42], [20, 64], [40, 64]],
    7: [[20, 18], [40, 18], [30, 31], [20, 44], [40, 44], [20, 66], [40, 66]],
  };

  function node(tag, attrs, text) {
    const n = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  /* A Spanish suit's emblem, centred on (x, y), about 2r tall. */
  function emblem(suit, x, y, r) {
    const colour = SPANISH[suit][0];
    const slim = suit === "e" || suit === "b" ? 1.35 : 1;  // a sword or a club is narrow: drawn taller
    const g = node("g", { transform: `translate(${x},${y}) scale(${(r / 10) * slim})`, class: "emblem emblem-" + suit });
    if (suit === "o") {  // a gold coin
      g.append(node("circle", { r: 9, fill: colour, stroke: "#8a5a00", "stroke-width": 1.5 }));
      g.append(node("circle", { r: 4.5, fill: "none", stroke: "#8a5a00", "stroke-width": 1.2 }));
    } else if (suit === "c") {  // a cup
      g.append(node("path", { d: "M-8,-9 H8 Q8,2 1.5,3 V6 H5 V9 H-5 V6 H-1.5 V3 Q-8,2 -8,-9 Z", fill: colour, stroke: "#7a1418", "stroke-width": 1 }));
    } else if (suit === "e") {  // a sword, point up
      g.append(node("path", { d: "M0,-10 L2,-7 V4 H-2 V-7 Z", fill: colour, stroke: "#0d2a5c", "stroke-width": .8 }));
      g.append(node("rect", { x: -6, y: 4, width: 12, height: 2, fill: "#0d2a5c" }));
      g.append(node("rect", { x: -1.2, y: 6, width: 2.4, height: 4, fill: "#7b4a12" }));
    } else {  // bastos: a knotted club
      g.append(node("path", { d: "M-3,9 L-1.5,-8 Q0,-11 2.5,-8 L3,9 Z", fill: colour, stroke: "#1b4d1e", "stroke-width": 1 }));
      g.append(node("circle", { cx: -1.5, cy: -2, r: 1.3, fill: "#1b4d1e" }));
      g.append(node("circle", { cx: 1.8, cy: 3, r: 1.3, fill: "#1b4d1e" }));
    }
    return g;
  }

  function frenchPip(suit, x, y, size) {
    const [glyph, colour] = FRENCH[suit];
    return node("text", { x, y: y + size * 0.35, "font-size": size, "text-anchor": "middle", fill: colour, class: "pip" }, glyph);
  }

  function face(rank, suit, spanish) {
    const colour = spanish ? SPANISH[suit][0] : FRENCH[suit][1];
    const svg = node("svg", { viewBox: "0 0 60 84", class: "card-face", "aria-hidden": "true", focusable: "false" });
    svg.append(node("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, fill: "#fffdf7", stroke: "#98a2b3" }));
    // the corner index, and the same turned round at the opposite corner
    const corner = node("g", { class: "index" });
    corner.append(node("text", { x: 8, y: 13, "font-size": 11, "font-weight": 700, "text-anchor": "middle", fill: colour }, rank));
    if (spanish) corner.append(emblem(suit, 8, 21, 4));
    else corner.append(frenchPip(suit, 8, 20, 9));
    svg.append(corner);
    const turned = corner.cloneNode(true);
    turned.setAttribute("transform", "rotate(180 30 42)");
    svg.append(turned);
    const court = COURT[rank];
    if (court) {
      svg.append(node("rect", { x: 15, y: 16, width: 30, height: 52, rx: 3, fill: "none", stroke: colour, "stroke-width": 1.5 }));
      svg.append(node("text", { x: 30, y: 40, "font-size": 18, "font-weight": 700, "text-anchor": "middle", fill: colour, class: "court" }, court));
      svg.append(spanish ? emblem(suit, 30, 55, 7) : frenchPip(suit, 30, 54, 16));
      return svg;
    }
    const count = rank === "A" ? 1 : Number(rank);
    const spots = PIPS[count] || PIPS[1];
    const big = count === 1;
    spots.forEach(([x, y]) => svg.append(spanish ? emblem(suit, x, y, big ? 14 : 6.5) : frenchPip(suit, x, y, big ? 34 : 13)));
    return svg;
  }

  function card(code, deck, extra) {
    const tile = plainCard(code, deck, extra);
    if (!code || code.startsWith("#")) return tile;  // a back: nothing to show
    const spanish = (deck || "").startsWith("spanish");
    const suit = code.slice(-1);
    const rank = code.slice(0, -1);
    if (!(spanish ? SPANISH : FRENCH)[suit]) return tile;
    const words = rank + " of " + (spanish ? SPANISH[suit][1] : FRENCH[suit][2]);
    const text = document.createElement("span");
    text.className = "card-text";
    text.append(...tile.childNodes);
    tile.replaceChildren(face(rank, suit, spanish), text);
    tile.classList.add("has-face");
    if (tile.tagName !== "BUTTON") tile.setAttribute("role", "img");
    tile.setAttribute("aria-label", words);
    return tile;
  }

  window.Arena = Object.assign(Arena, { card, plainCard });
})();
