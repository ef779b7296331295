/* A game's score over its hands, drawn with the vendored Chart.js under the replay: each
   team's points at the start and after every hand, from the replay's summary (each hand's
   points) after the first frame's score. The canvas's label says the final score in words. */
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);
  const fmt = (s, values) => (window.interpolate ? window.interpolate(s, values, true) : s);

  /* [[team 0, team 1] at the start, after hand 1, ...]: the first frame's score, plus each
     hand's points of the replay's summary (the engine's own account of the game). */
  function scoreByHand(frames, summary) {
    if (!frames.length) return [];
    const scores = [frames[0].view.score.slice()];
    for (const hand of (summary && summary.hands) || []) {
      const last = scores[scores.length - 1];
      scores.push([last[0] + hand.points[0], last[1] + hand.points[1]]);
    }
    return scores;
  }

  function draw(canvas, frames, summary, seats) {
    const scores = scoreByHand(frames, summary);
    const labels = scores.map((_, i) => (i === 0 ? gettext("start") : fmt(gettext("hand %(n)s"), { n: i })));
    const teamName = (team) => {
      const names = (seats || []).filter((s) => s.seat % 2 === team).map((s) => s.name);
      return names.length ? names.join(" & ") : fmt(gettext("team %(n)s"), { n: team });
    };
    const chart = new window.Chart(canvas, {
      type: "line",
      data: {
        labels,
        datasets: [0, 1].map((team) => ({
          label: teamName(team),
          data: scores.map((s) => s[team]),
          borderColor: team === 0 ? "#0b6e4f" : "#b42318",
          backgroundColor: team === 0 ? "#0b6e4f" : "#b42318",
          stepped: "before",
        })),
      },
      options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true, title: { display: true, text: gettext("points") } } } },
    });
    const final = scores[scores.length - 1];
    canvas.setAttribute("aria-label", fmt(gettext("Score over %(n)s hands: %(a)s to %(b)s"), { n: scores.length - 1, a: final[0], b: final[1] }));
    canvas.dataset.hands = String(scores.length - 1);
    return chart;
  }

  window.Arena = Object.assign(window.Arena || {}, { drawScoreChart: draw, scoreByHand });
})();
