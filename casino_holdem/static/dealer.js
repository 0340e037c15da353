/* The dealer's console (R1, R9): deals the next card from what is typed, tapped or scanned (a
 * scanner types the code and Enter), and reports incidents, through the dealer API. Every call,
 * the state polls included, goes through one queue, so the position sent with a card is always
 * the one the last answer named: a card is never dealt past one the console has not seen.
 * The API never gives the Dealer's cards before showdown; the console shows the ones it entered. */
"use strict";

(() => {
  const { api, card: cardNode, element, phaseName, secondsLeft } = Casino;
  const root = document.getElementById("dealer-console");
  const base = `/api/dealer/tables/${root.dataset.table}`;
  const POLL_MS = 1000;
  const FINISHED = ["settled", "void"];
  const $ = (id) => document.getElementById(id);
  const entered = {}; // round id → {position: code}: the cards this console entered itself
  let state = null;
  let receivedAt = 0;
  let pickedRank = null;
  let incidentKind = null;
  let queue = Promise.resolve();

  /** Run ``task`` after every call already queued (a refusal does not stop the queue). */
  function enqueue(task) {
    queue = queue.then(task).catch((error) => say(refusal(error), false));
    return queue;
  }

  function refusal(error) {
    if (error.status === 401) window.location.assign(`/operator/login?next=${encodeURIComponent(location.pathname)}`);
    return `Refused: ${error.message}`;
  }

  function say(text, ok) {
    const node = $("dealer-message");
    node.textContent = text;
    node.className = `console-message ${ok ? "ok" : "refused"}`;
  }

  function setText(id, text) {
    const node = $(id);
    if (node.textContent !== text) node.textContent = text;
  }

  function accept(view) {
    state = view;
    receivedAt = performance.now();
    render();
  }

  function nextText() {
    const round = state.round;
    if (!round) return "No round yet";
    if (state.next) return `Next card: ${state.next.label}`;
    if (round.phase === "betting") return "Betting is open: no card is due yet";
    if (FINISHED.includes(round.phase)) return `Round ${round.number} is ${round.phase}: the next one opens shortly`;
    return `The players are deciding (${phaseName(round.phase)}): no card is due`;
  }

  function renderSteps() {
    const mine = (state.round && entered[state.round.round_id]) || {};
    for (const node of document.querySelectorAll("#steps li")) {
      const position = Number(node.dataset.position);
      const step = state.steps[position];
      const slot = node.querySelector(".step-card");
      node.classList.toggle("dealt", Boolean(step && step.dealt));
      node.classList.toggle("next", Boolean(state.next && state.next.position === position));
      const key = step ? `${step.dealt}:${step.card}:${mine[position] || ""}` : "";
      if (slot.dataset.key === key) continue;
      slot.dataset.key = key;
      if (step && step.card) slot.replaceChildren(cardNode(step.card));
      else if (step && step.dealt) slot.textContent = mine[position] ? `${mine[position]} · face down` : "dealt · face down";
      else slot.textContent = "—";
    }
  }

  function renderNotices() {
    const notices = (state.round && state.round.notices) || [];
    const list = $("notices");
    list.replaceChildren(...notices.map((text) => element("li", "", text)));
    list.hidden = notices.length === 0;
  }

  function renderClock() {
    const round = state && state.round;
    const left = round && !FINISHED.includes(round.phase)
      ? secondsLeft(round.deadline, state.server_time, receivedAt, round.repeats_every) : null;
    setText("timer", left === null ? "—" : `${Math.ceil(left)} s`);
  }

  function render() {
    const round = state.round;
    setText("round-number", round ? String(round.number) : "—");
    setText("phase", round ? phaseName(round.phase) : "—");
    setText("bettors", round ? String(round.bettor_count) : "0");
    setText("next", nextText());
    root.classList.toggle("awaiting", Boolean(state.next));
    renderSteps();
    renderNotices();
    renderClock();
  }

  function poll() {
    enqueue(async () => accept(await api("GET", base))).finally(() => setTimeout(poll, POLL_MS));
  }

  /** R1: the typed, tapped or scanned card goes to the next position the console was shown. */
  function deal(code) {
    enqueue(async () => {
      const position = state && state.next ? state.next.position : undefined;
      const label = state && state.next ? state.next.label : "";
      const view = await api("POST", `${base}/cards`, { card: code, position });
      if (view.round && position !== undefined) (entered[view.round.round_id] ||= {})[position] = code;
      accept(view);
      say(`${code} → ${label}`, true);
    });
  }

  $("card-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("card-code");
    const code = input.value.trim();
    input.value = "";
    input.focus();
    if (code) deal(code);
  });

  for (const button of document.querySelectorAll("[data-rank]")) {
    button.addEventListener("click", () => {
      pickedRank = button.dataset.rank;
      for (const other of document.querySelectorAll("[data-rank]")) other.classList.toggle("picked", other === button);
    });
  }
  for (const button of document.querySelectorAll("[data-suit]")) {
    button.addEventListener("click", () => {
      if (!pickedRank) return say("Pick a rank first, then its suit.", false);
      deal(pickedRank + button.dataset.suit);
      pickedRank = null;
      for (const other of document.querySelectorAll("[data-rank]")) other.classList.remove("picked");
    });
  }

  // --- R9 incidents --------------------------------------------------------------------------

  const EFFECTS = {
    void: (incident) => `the round is void (${(incident.void_reason || "").replace(/_/g, " ")}); stakes are refunded`,
    reshuffle: () => "re-shuffle; the bets stand",
    used_again: () => "the card is used again; the round goes on",
    corrected: (incident) => `taken back from ${incident.wrong_position} and dealt to ${incident.corrected_to}`,
    recorded: () => "recorded; the round goes on",
  };

  function closeIncident() {
    $("incident-form").hidden = true;
    incidentKind = null;
    $("incident-card").value = "";
    $("card-code").focus();
  }

  for (const button of document.querySelectorAll(".incident")) {
    button.addEventListener("click", () => {
      incidentKind = button.dataset.kind;
      $("incident-form").hidden = false;
      $("incident-title").textContent = `Report: ${button.textContent}`;
      $("wrong-position-field").hidden = incidentKind !== "misdeal";
      if ($("house-voids-field")) $("house-voids-field").hidden = incidentKind !== "misdeal";
      if ($("house-voids")) $("house-voids").checked = false;
      $("incident-card").focus();
    });
  }

  $("incident-cancel").addEventListener("click", closeIncident);

  $("incident-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { kind: incidentKind };
    const code = $("incident-card").value.trim();
    if (code) body.card = code;
    if (incidentKind === "misdeal") {
      body.wrong_position = Number($("wrong-position").value);
      if ($("house-voids")) body.house_voids = $("house-voids").checked;
    }
    enqueue(async () => {
      const incident = await api("POST", `${base}/incidents`, body);
      say(`${incident.kind.replace(/_/g, " ")}: ${(EFFECTS[incident.effect] || (() => incident.effect))(incident)}`, true);
      closeIncident();
      accept(await api("GET", base));
    });
  });

  setInterval(renderClock, 250);
  poll();
})();
