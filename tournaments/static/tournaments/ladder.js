/* A ladder board's page follows the board: its live part (the board, the matches in flight, the
   latest) asked again every 10 s and drawn as the server wrote it; a tab in the background asks
   nothing, and asks at once when shown again. */
(function () {
  "use strict";
  const POLL_MS = 10000;
  const box = document.getElementById("ladder-live");
  if (!box || !window.fetch) return;
  let waiting = null, asking = false;
  async function tick() {
    waiting = null;
    if (asking || document.hidden) return;
    asking = true;
    try {
      const answer = await fetch(box.dataset.url, { headers: { Accept: "text/html" } });
      if (answer.ok) box.innerHTML = await answer.text();
    } catch (e) {
      /* a failed look is tried again at the next tick */
    } finally {
      asking = false;
    }
    waiting = setTimeout(tick, POLL_MS);
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && waiting === null) tick();
  });
  waiting = setTimeout(tick, POLL_MS);
})();
