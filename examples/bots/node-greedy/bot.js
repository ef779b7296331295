// A Truco bot for Node written to the bot protocol (docs/bot-protocol.md), no packages needed:
// JSON lines in on standard input, one {"action": ...} line out per "act" message.
//
// Strategy: lead with the strongest card, follow with the weakest card that beats the table
// (else the weakest card), accept a truco when holding a manilha, never raise. Card strength is
// Truco Paulista's: ranks 4 5 6 7 Q J K A 2 3; the rank after the vira's is the manilha
// (clubs > hearts > spades > diamonds).
"use strict";

const readline = require("readline");

const RANKS = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"];
const MANILHA_SUITS = ["d", "s", "h", "c"]; // weakest to strongest

function strength(card, vira) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  if (vira && RANKS.includes(rank) && RANKS.includes(vira.slice(0, -1))) {
    const manilha = RANKS[(RANKS.indexOf(vira.slice(0, -1)) + 1) % RANKS.length];
    if (rank === manilha) return 100 + MANILHA_SUITS.indexOf(suit);
  }
  return Math.max(RANKS.indexOf(rank), 0);
}

// The cards played in the current trick (entries are [seat, card] or a card).
function cardsOnTable(trick) {
  const found = [];
  for (const entry of trick || []) {
    if (typeof entry === "string") found.push(entry);
    else if (Array.isArray(entry)) {
      for (const x of entry) if (typeof x === "string" && x.length >= 2) found.push(x);
    } else if (entry && typeof entry.card === "string") found.push(entry.card);
  }
  return found;
}

function decide(legal, observation) {
  const vira = observation.vira || "";
  if (legal.includes("accept")) {
    const hasManilha = (observation.hand || []).some((c) => strength(c, vira) >= 100);
    return hasManilha || !legal.includes("refuse") ? "accept" : "refuse";
  }
  const plays = legal.filter((a) => a.startsWith("play "));
  if (plays.length === 0) return legal[0];
  const byStrength = plays.sort((a, b) => strength(a.slice(5), vira) - strength(b.slice(5), vira));
  const table = cardsOnTable(observation.trick).map((c) => strength(c, vira));
  if (table.length === 0) return byStrength[byStrength.length - 1];
  const best = Math.max(...table);
  const winner = byStrength.find((a) => strength(a.slice(5), vira) > best);
  return winner || byStrength[0];
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "act") {
    const action = decide(message.legal, message.observation || {});
    process.stdout.write(JSON.stringify({ id: message.id, action }) + "\n");
  } else if (message.type === "match_end") {
    lines.close();
  }
});
