// A Truco bot written to the bot protocol (docs/bot-protocol.md) for Node, with no packages:
// the engine's messages arrive as JSON lines on standard input; each "act" is answered with one
// line {"id": ..., "action": ...} on standard output. Anything written to standard error is
// your log (`--logs DIR` keeps it; the server shows it to you alone).
//
// It plays every variant legally: it answers bets at random (accept_rate), calls a bet now and
// then (bet_rate), and otherwise plays a random card. Write your strategy in choose().
"use strict";

const readline = require("readline");

let params = {}; // this bot's parameters, from bot.toml's [params] (or --bots ./dir:key=value)
let random = seeded(0n);
let seat = 0;
let won = 0; // a bot may keep anything across the games of a match
let played = 0;

// A small seeded generator (mulberry32): Math.random cannot be seeded, and a bot that uses its
// game's seed plays the same match the same way again.
function seeded(seed) {
  let state = Number(BigInt.asUintN(32, seed ^ (seed >> 32n)));
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(list) {
  return list[Math.floor(random() * list.length)];
}

function log(text) {
  process.stderr.write(text + "\n");
}

// One of `legal`. `observation` is your seat's view: your `hand`, the `trick` so far, the
// `score`, and `bet_values`, what each bet or answer is worth (docs/bot-protocol.md).
function choose(legal, observation) {
  const values = observation.bet_values || {};
  if (legal.includes("accept") && legal.includes("refuse")) {
    // a bet to answer, or a hand of eleven to play
    return random() < (params.accept_rate ?? 0.5) ? "accept" : "refuse";
  }
  const bets = legal.filter((action) => values[action] && "refused" in values[action]);
  if (bets.length > 0 && random() < (params.bet_rate ?? 0.1)) return pick(bets);
  const plays = legal.filter((action) => action.startsWith("play "));
  if (plays.length > 0) return pick(plays);
  // Anything else the variant asks (a flor to declare, a pair to show, lots to keep or burn).
  const others = legal.filter((action) => !bets.includes(action) && action !== "fold");
  return pick(others.length > 0 ? others : legal);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "match") {
    params = message.params;
    log(`match: ${message.variant}, ${message.players} players, params ${JSON.stringify(params)}`);
  } else if (message.type === "game") {
    // The seed is a 63-bit integer: read it from the line itself, where no digit is lost.
    const seed = /"seed":\s*(\d+)/.exec(line);
    random = seeded(BigInt(seed ? seed[1] : 0));
    seat = message.seat;
    log(`game ${message.game + 1}: seat ${seat} (won ${won} of ${played} so far)`);
  } else if (message.type === "act") {
    const action = choose(message.legal, message.observation);
    process.stdout.write(JSON.stringify({ id: message.id, action }) + "\n");
  } else if (message.type === "game_end") {
    // Notices reach the bot with its next message: what it logs now shows in the log of the
    // next game.
    played += 1;
    if (message.result.winner === seat % 2) won += 1;
  } else if (message.type === "match_end") {
    lines.close();
  }
  // hand_end, and any message type a later version adds: nothing to answer.
});
