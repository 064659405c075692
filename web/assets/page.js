// gaugebot's game page: the slider shows the position it points at, and the page follows the
// game live (it asks the bot every few seconds whether the record grew, and then fetches the
// page again and swaps it in, without a reload). Everything else works without this script.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const slider = document.getElementById("at");
  const shown = document.getElementById("at-shown");
  if (slider && shown) {
    slider.addEventListener("input", () => { shown.textContent = "#" + slider.value; });
    slider.addEventListener("change", () => { slider.form.submit(); });
  }
  // Live updates, only when the page shows the position now.
  if (!base || body.dataset.at !== "") return;
  let entries = Number(body.dataset.entries);
  async function poll() {
    try {
      const answer = await fetch(base + "/head", { cache: "no-store" });
      if (!answer.ok) return;
      const head = await answer.json();
      if (head.entries === entries) return;
      const page = await fetch(base, { cache: "no-store" });
      if (!page.ok) return;
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
      const main = fresh.getElementById("page");
      if (!main) return;
      document.getElementById("page").replaceWith(main);
      entries = head.entries;
      body.dataset.entries = String(entries);
      document.title = fresh.title;
      if (window.gaugebotVerify) window.gaugebotVerify();
    } catch (e) {
      // The bot is away for a moment: ask again at the next tick.
    }
  }
  setInterval(poll, 5000);
})();
