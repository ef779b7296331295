/* Watching a running bot match: its spectator view pushed over /ws/matches/<id>/watch/
   (tournaments/watch.py), drawn as the replay draws a frame; polls the API while the
   connection is down and says so; reloads the page when the match is over (its games and
   replays are then listed). */
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const { fetchJSON, drawTable } = window.Arena;
  const board = document.getElementById("live-board");
  const status = document.getElementById("live-status");
  let seen = null;
  let socket = null;
  let pollTimer = null;
  let finished = false;

  function show(live) {
    if (!live || live.seq === seen) return;
    seen = live.seq;
    drawTable(board, live.view, { seats: live.seats || [] });
    root.dataset.seq = String(live.seq);
    root.dataset.ply = String(live.ply);
    status.textContent = "game " + (live.game + 1) + " · decision " + live.ply +
      (live.over ? " · the game is over" : "");
  }

  function done() {
    if (finished) return;
    finished = true;
    status.textContent = "the match is over: its games are below";
    if (socket) socket.close();
    clearInterval(pollTimer);
    setTimeout(() => window.location.reload(), 1500);
  }

  function poll() {
    fetchJSON(root.dataset.url).then((answer) => {
      if (["done", "failed", "cancelled"].includes(answer.status)) return done();
      if (answer.live) show(answer.live);
    }).catch(() => {});
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + root.dataset.socket);
    socket.addEventListener("open", () => {
      clearInterval(pollTimer);
      pollTimer = null;
      root.dataset.transport = "push";
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") show(message.live);
      else if (message.type === "done") done();
      else if (message.type === "status" && message.status === "queued") status.textContent = "waiting for a worker to play it…";
    });
    socket.addEventListener("close", () => {
      if (finished) return;
      root.dataset.transport = "poll";
      status.textContent = "reconnecting… (following by polling meanwhile)";
      if (!pollTimer) pollTimer = setInterval(poll, 1000);
      setTimeout(connect, 3000);
    });
  }

  connect();
})();
