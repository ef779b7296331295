/* A rating over time, drawn with the vendored Chart.js: mu as a line inside its 95% band
   (mu - 2 sigma .. mu + 2 sigma). Every <canvas data-rating-history="URL"> on the page gets one,
   from the API's history endpoint (all its pages). The figures are also written into a table
   after the canvas, for screen readers and for those who would rather read them. */
(function () {
  "use strict";
  const gettext = window.gettext || ((s) => s);

  async function allPages(url) {
    const points = [];
    let next = url;
    while (next) {
      const page = await window.Arena.fetchJSON(next);
      if (Array.isArray(page)) return page;
      points.push(...page.results);
      next = page.next;
    }
    return points;
  }

  function when(iso) {
    const d = new Date(iso);
    return d.toLocaleDateString() + " " + d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function draw(canvas, points) {
    const x = points.map((p) => Date.parse(p.at));
    const series = (key) => points.map((p, i) => ({ x: x[i], y: p[key] }));
    const chart = new window.Chart(canvas, {
      type: "line",
      data: {
        datasets: [
          { label: gettext("mu + 2 sigma"), data: series("high"), borderWidth: 0, pointRadius: 0, fill: false },
          { label: gettext("mu - 2 sigma"), data: series("low"), borderWidth: 0, pointRadius: 0, fill: "-1", backgroundColor: "rgba(11,110,79,0.18)" },
          { label: gettext("rating (mu)"), data: series("mu"), borderColor: "#0b6e4f", backgroundColor: "#0b6e4f", pointRadius: points.length > 60 ? 0 : 2, tension: 0.2 },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: "linear", ticks: { maxTicksLimit: 6, callback: (v) => new Date(v).toLocaleDateString() } },
          y: { title: { display: true, text: gettext("rating") } },
        },
        plugins: {
          legend: { labels: { filter: (item) => item.datasetIndex === 2 } },
          tooltip: { callbacks: { title: (items) => when(items[0].parsed.x) } },
        },
      },
    });
    canvas.dataset.points = String(points.length);
    return chart;
  }

  function table(points) {
    const { el } = window.Arena;
    return el("details", { class: "chart-figures" }, el("summary", {}, gettext("The figures")),
      el("table", { class: "grid" },
        el("thead", {}, el("tr", {}, el("th", {}, gettext("when")), el("th", {}, gettext("matches")), el("th", {}, "mu"), el("th", {}, "sigma"))),
        el("tbody", {}, points.map((p) => el("tr", {}, el("td", {}, when(p.at)), el("td", {}, p.matches), el("td", {}, p.mu.toFixed(2)), el("td", {}, p.sigma.toFixed(2)))))));
  }

  document.querySelectorAll("canvas[data-rating-history]").forEach((canvas) => {
    const status = canvas.parentElement.querySelector(".chart-status");
    allPages(canvas.dataset.ratingHistory).then((points) => {
      if (!points.length) {
        if (status) status.textContent = gettext("No rated matches yet: the chart fills in as it plays.");
        canvas.dataset.points = "0";
        return;
      }
      if (status) status.textContent = "";
      draw(canvas, points);
      canvas.parentElement.after(table(points));
    }).catch((error) => { if (status) status.textContent = gettext("Could not load the history: ") + error.message; });
  });
})();
