/* The lines of a bracket: from each match to the one its winner plays next (data-next), drawn
   as SVG over each section of the bracket (.arena-bracket), so that an elimination tournament
   reads as a bracket. Redrawn when the page is resized and when the live page redraws the
   bracket (tournament.js calls Arena.drawBracketLines). */
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";

  function drawSection(section) {
    section.querySelectorAll("svg.bracket-lines").forEach((old) => old.remove());
    const boxes = new Map();
    section.querySelectorAll(".arena-match[data-key]").forEach((m) => boxes.set(m.dataset.key, m));
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "bracket-lines");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("width", section.scrollWidth);
    svg.setAttribute("height", section.scrollHeight);
    const origin = section.getBoundingClientRect();
    const dx = section.scrollLeft - origin.left;
    const dy = section.scrollTop - origin.top;
    let lines = 0;
    boxes.forEach((box, key) => {
      const next = boxes.get(box.dataset.next || "");
      if (!next) return;  // the final, or a line into another section (losers, grand final)
      const a = box.getBoundingClientRect();
      const b = next.getBoundingClientRect();
      const x1 = a.right + dx, y1 = a.top + a.height / 2 + dy;
      const x2 = b.left + dx, y2 = b.top + b.height / 2 + dy;
      const mid = (x1 + x2) / 2;
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("d", `M${x1},${y1} H${mid} V${y2} H${x2}`);
      path.dataset.from = key;
      path.dataset.to = box.dataset.next;
      svg.append(path);
      lines += 1;
    });
    section.dataset.lines = String(lines);
    section.prepend(svg);
  }

  function drawBracketLines(root) {
    (root || document).querySelectorAll(".arena-bracket").forEach(drawSection);
  }

  window.Arena = Object.assign(window.Arena || {}, { drawBracketLines });
  window.addEventListener("resize", () => drawBracketLines());
  window.addEventListener("load", () => drawBracketLines());  // once everything is laid out
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => drawBracketLines());
  else drawBracketLines();
})();
