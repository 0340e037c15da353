/* The lobby: jackpot meters, phases, bettors and time left, live from /events/lobby. */
"use strict";

Casino.ready.then(() => {
  const { t, money, phaseName, secondsLeft, follow, showLink } = Casino;
  let state = JSON.parse(document.getElementById("state").textContent);
  let receivedAt = performance.now();
  const known = state.tables.map((table) => table.id).join(",");

  function field(card, name) {
    return card.querySelector(`[data-field="${name}"]`);
  }

  function render() {
    document.getElementById("balance").textContent = money(state.balance.available, state.currency);
    for (const table of state.tables) {
      const card = document.querySelector(`[data-table="${table.id}"]`);
      if (!card) continue;
      field(card, "jackpot").textContent = money(table.jackpot, state.currency);
      // a suspended table opens no round until it is resumed: no phase, no countdown
      field(card, "phase").textContent = table.suspended ? t("Suspended") : phaseName(table.round ? table.round.phase : "waiting");
      field(card, "phase").classList.toggle("suspended", Boolean(table.suspended));
      field(card, "bettors").textContent = table.round ? table.round.bettors : 0;
      field(card, "countdown").dataset.deadline = (!table.suspended && table.round && table.round.deadline) || "";
      field(card, "countdown").dataset.repeats = (table.round && table.round.repeats_every) || "";
    }
    tick();
  }

  function tick() {
    for (const node of document.querySelectorAll('[data-field="countdown"]')) {
      const left = secondsLeft(node.dataset.deadline, state.server_time, receivedAt, Number(node.dataset.repeats));
      node.textContent = left === null ? "" : t("%(seconds)s s left", { seconds: Math.ceil(left) });
    }
  }

  follow("/events/lobby", (payload, at) => {
    if (payload.tables.map((table) => table.id).join(",") !== known) {
      window.location.reload();
      return;
    }
    state = payload;
    receivedAt = at;
    render();
  }, (up) => showLink(document.getElementById("connection"), up));
  render();
  setInterval(tick, 500);
});
