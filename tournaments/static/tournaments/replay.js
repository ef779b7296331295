/* The replay viewer: reads the game's frames from the API and steps through them. */
(function () {
  "use strict";
  const { fetchJSON, drawTable } = window.Arena;
  const root = document.getElementById("replay");
  const board = document.getElementById("board");
  const scrubber = document.getElementById("scrubber");
  const position = document.getElementById("position");
  const playButton = document.getElementById("play-button");
  let frames = [];
  let seats = [];
  let index = 0;
  let timer = null;

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[index];
    const last = frame.action === null ? "the deal" :
      window.Arena.seatName(seats, frame.seat) + " — " + frame.action;
    drawTable(board, frame.view, { seats: seats, lastAction: last });
    scrubber.value = index;
    position.textContent = "step " + index + " of " + (frames.length - 1);
    root.dataset.step = String(index);
  }

  function step(kind) {
    if (kind === "first") show(0);
    else if (kind === "prev") show(index - 1);
    else if (kind === "next") show(index + 1);
    else if (kind === "last") show(frames.length - 1);
    else if (kind === "play") toggle();
  }

  function toggle() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      playButton.textContent = "play";
      return;
    }
    playButton.textContent = "pause";
    timer = setInterval(() => {
      if (index >= frames.length - 1) return toggle();
      show(index + 1);
    }, 800);
  }

  root.querySelectorAll("button[data-step]").forEach((b) =>
    b.addEventListener("click", () => step(b.dataset.step)));
  scrubber.addEventListener("input", () => show(Number(scrubber.value)));
  document.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" };
    if (keys[event.key]) { event.preventDefault(); step(keys[event.key]); }
  });

  fetchJSON(root.dataset.url).then((replay) => {
    frames = replay.frames;
    seats = replay.seats || [];
    scrubber.max = frames.length - 1;
    show(0);
    const chart = document.getElementById("score-chart");
    if (chart && window.Arena.drawScoreChart && window.Chart) window.Arena.drawScoreChart(chart, frames, replay.summary, seats);
  }).catch((error) => { position.textContent = "could not load the game: " + error.message; });
})();
