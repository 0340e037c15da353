/* The table page: renders the state the server sends (services.viewing.table_view) and sends
 * bets and decisions to the API. Live from /events/tables/<id>; a reload or a dropped stream comes
 * back to the same round, which the dealer has moved on by R8 meanwhile. The felt and clock are
 * table_felt.js's, the panels table_panels.js's, the words table_view.js's. */
"use strict";

Casino.ready.then(() => {
  const { t, api, toUnits, fromUnits, element, follow, showLink } = Casino;
  const { $, setText, finished, statusText, plainError } = TableView;
  const SHORTCUTS = { f: "fold", p: "flop", b: "bet", c: "check" };
  /** How long an accepted action waits for the stream to show it before the table is read instead. */
  const STREAMED_WITHIN_MS = 1500;

  let state = JSON.parse($("state").textContent);
  let receivedAt = performance.now();
  let activeSpot = "ante";
  let busy = false;
  let focusNext = false;
  let slip = new TableSlip();
  let slipRound = null;
  const tableId = state.table.id;
  const units = (text) => toUnits(text, state.currency.decimals) ?? 0n;
  const amountOf = (count) => fromUnits(count, state.currency.decimals);
  const cash = (text) => TableView.cash(state, text);

  const currentRound = () => state.round;
  const you = () => TableView.you(state);

  /** A chip's face: "25000" → "25k" so that it fits the chip. */
  function chipLabel(value) {
    return /^\d{2,}000$/.test(value) ? `${value.slice(0, -3)}k` : value;
  }

  /** The bets a Rebet repeats: the player's last placed bet at this table. */
  function lastBet() {
    const saved = JSON.parse(sessionStorage.getItem(`casino-last-bet-${tableId}`) || "null");
    const bet = saved || (state.last_round && state.last_round.you.has_bet ? state.last_round.you.bet : null);
    if (!bet) return null;
    return { ante: units(bet.ante), bonus: units(bet.bonus), progressive: bet.progressive !== "0" && bet.progressive !== false };
  }

  function bettingOpen() {
    const round = currentRound();
    return Boolean(round && round.phase === "betting" && !you().has_bet && state.table.is_open && !state.table.suspended);
  }

  /** A new betting window starts with empty spots: nothing carries over unasked (Rebet does it). */
  function syncSlip() {
    const round = currentRound();
    const id = round && round.phase === "betting" ? round.round_id : null;
    if (id !== slipRound) {
      slip = new TableSlip();
      slipRound = id;
      selectSpot("ante");
    }
  }

  function renderSpots() {
    const open = bettingOpen();
    const round = currentRound();
    const placed = round && round.you && round.you.has_bet ? round.you.bet : null;
    const shown = placed ? { ante: units(placed.ante), bonus: units(placed.bonus), progressive: placed.progressive !== "0" }
      : open ? slip.snapshot() : { ante: 0n, bonus: 0n, progressive: false };
    const stake = (count) => (count > 0n ? cash(amountOf(count)) : "");
    setText("ante-stack", stake(shown.ante));
    setText("bonus-stack", stake(shown.bonus));
    setText("progressive-stack", shown.progressive ? cash(state.table.progressive_bet) : "");
    const later = placed ? ["flop", "turn", "river"].reduce((sum, name) => sum + units(placed[name]), 0n) : 0n;
    setText("play-stack", stake(later));
    $("play-spot").hidden = later === 0n;
    for (const name of ["ante", "bonus", "progressive"]) {
      const spot = $(name);
      spot.classList.toggle("filled", name === "progressive" ? shown.progressive : shown[name] > 0n);
      spot.disabled = !open || (name !== "ante" && shown.ante === 0n);
      spot.classList.toggle("active", open && name === activeSpot);
      spot.setAttribute("aria-pressed", String(name === "progressive" ? shown.progressive : open && name === activeSpot));
    }
  }

  function renderBetForm() {
    const open = bettingOpen();
    $("bet-form").hidden = !open;
    if (!open) return;
    const limits = state.table.limits;
    setText("limits", `${t("Ante")} ${cash(limits.ante_min)} – ${cash(limits.ante_max)} · ` +
                      `${t("Bonus")} ${cash(limits.bonus_min)} – ${cash(limits.bonus_max)} · ${t("Progressive")} ${cash(state.table.progressive_bet)}`);
    const chips = $("chips");
    if (chips.dataset.key !== state.table.chips.join(",")) {
      chips.dataset.key = state.table.chips.join(",");
      chips.replaceChildren(...state.table.chips.map((value) => {
        const button = element("button", "chip", chipLabel(value));
        button.type = "button";
        button.dataset.chip = value;
        button.setAttribute("aria-label", t("Add %(amount)s", { amount: cash(value) }));
        return button;
      }));
    }
    const total = slip.ante + slip.bonus + (slip.progressive ? units(state.table.progressive_bet) : 0n);
    setText("slip-total", slip.ante === 0n ? t("Add chips to the Ante first.") :
      t("Total %(total)s; up to %(held)s more held back for the Flop, Turn and River bets (4 × Ante).",
        { total: cash(amountOf(total)), held: cash(amountOf(4n * slip.ante)) }));
    $("undo").disabled = slip.past.length === 0;
    $("rebet").disabled = lastBet() === null;
    $("double").disabled = slip.ante === 0n;
    $("place").disabled = slip.ante === 0n || busy;
  }

  function renderDecisions() {
    const round = currentRound();
    const mine = you();
    for (const button of document.querySelectorAll("#decisions button")) {
      const action = button.dataset.action;
      button.hidden = !mine.allowed_actions.includes(action);
      button.disabled = busy;
      const amount = button.querySelector(".amount");
      if (amount && mine.costs) amount.textContent = cash(action === "flop" ? mine.costs.flop : mine.costs.bet);
    }
    $("decisions").dataset.round = round ? round.round_id : "";
  }

  /** R9: the incidents that did not void the round (a card used again, a misdeal corrected). */
  function renderNotices(round) {
    const notices = (round && round.notices) || [];
    $("notices").replaceChildren(...notices.map((text) => element("li", "", t(text))));
    $("notices").hidden = notices.length === 0;
  }

  function renderSession() {
    TableSession.render(state, units, (count) => cash(amountOf(count)));
  }

  function render() {
    setText("jackpot", cash(state.table.jackpot));
    setText("balance", cash(state.balance.balance));
    setText("available", cash(state.balance.available));
    $("suspended").hidden = !state.table.suspended;
    const round = currentRound();
    setText("round-number", round ? t(round.bettor_count === 1 ? "Round %(number)s · %(count)s betting player · %(progressive)s in the Progressive"
      : "Round %(number)s · %(count)s betting players · %(progressive)s in the Progressive",
      { number: round.number, count: round.bettor_count, progressive: round.progressive_participants }) : "");
    setText("commitment", round ? round.commitment : "");
    $("fairness").hidden = Boolean(round && round.dealing === "live");  // R1: a live round has no deck to commit to
    setText("commitment-round", round ? String(round.number) : "");
    syncSlip();
    TableFelt.render(state, units);
    TableFelt.renderClock(state, receivedAt);
    setText("status", statusText(state));
    renderNotices(state.round);
    renderSpots();
    renderBetForm();
    renderDecisions();
    TablePanels.renderMyBet(state);
    TablePanels.renderStrip(state);
    TablePanels.renderWins(state);
    renderSession();
    restoreFocus();
  }

  /** Keyboard players keep their place: after an action, focus goes to the next thing to do. */
  function restoreFocus() {
    if (!focusNext || busy) return;
    const decision = document.querySelector("#decisions button:not([hidden]):not([disabled])");
    const target = decision || (bettingOpen() ? $("ante") : $("status"));
    if (document.activeElement === target) return;
    focusNext = Boolean(!decision && !bettingOpen() && !finished(currentRound()));
    target.focus();
  }

  function accept(payload, at) {
    state = payload;
    receivedAt = at;
    render();
  }

  /** The stream's states, counted: the state read after an action is taken only when no streamed
   * state came in meanwhile, since it may have been read before a change the stream has already
   * shown (the dealer dealing the next street), and the stream sends only what changed. */
  let streamed = 0;
  let streamUp = false;
  let nextStreamed = null;
  function acceptStreamed(payload, at) {
    streamed += 1;
    accept(payload, at);
    if (nextStreamed) nextStreamed();
  }

  /** Whether the stream brings its next state within `ms`. It shows each player the change their
   * own action made (their bets, their balance), built once for every viewer, so after an accepted
   * action the table is read again only when it has not (the stream is down or slow): a floor of
   * players in browsers asks one request an action, not two. */
  function streamedWithin(ms) {
    if (!streamUp) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (seen) => { clearTimeout(timer); nextStreamed = null; resolve(seen); };
      const timer = setTimeout(() => done(false), ms);
      nextStreamed = () => done(true);
    });
  }

  function showError(message) {
    setText("error", message || "");
  }

  function requestId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** Send once, and once more with the same request id if the network failed (idempotent).
   * `shown()` says whether the state on the page shows the action taken: the stream may bring it
   * before the POST's answer comes (a change shown at once, such as the first bet moving the
   * window's deadline, R2.1), and then there is nothing left to wait for. */
  async function send(path, body, shown) {
    busy = true;
    focusNext = true;
    // the buttons are disabled while the request is out: hold the keyboard's place on the status
    // line meanwhile, so that focus never falls to the page body (it moves on once the state is in)
    if (document.activeElement && document.activeElement.closest("#decisions, #bet-form")) {
      $("status").focus({ preventScroll: true });
    }
    renderDecisions();
    let accepted = false;
    try {
      try {
        await api("POST", path, body);
      } catch (error) {
        if (error.status !== undefined) throw error;
        await api("POST", path, body);
      }
      showError("");
      accepted = true;
      return true;
    } catch (error) {
      showError(plainError(state, error));
      return false;
    } finally {
      // the buttons stay disabled until the state after the action is in: from the stream, or read
      try {
        const before = streamed;
        if (!(accepted && (shown() || await streamedWithin(STREAMED_WITHIN_MS)))) {
          const fresh = await api("GET", `/api/tables/${tableId}`);
          if (streamed === before) accept(fresh, performance.now());
        }
      } catch (error) {
        // the next streamed state shows it
      }
      busy = false;
      render();
    }
  }

  $("bet-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (slip.ante === 0n) return;
    const bets = { ante: amountOf(slip.ante), bonus: amountOf(slip.bonus), progressive: slip.progressive };
    // R2.1: name the round on the felt, so bets sent as its window closes are refused, never placed on the next round
    const round = slipRound === null ? {} : { round_id: slipRound };
    const placedOn = slipRound;
    const shown = () => you().has_bet && (placedOn === null || currentRound().round_id === placedOn);
    if (await send(`/api/tables/${tableId}/bets`, { ...bets, ...round, request_id: requestId() }, shown)) {
      sessionStorage.setItem(`casino-last-bet-${tableId}`, JSON.stringify(bets));
    }
  });

  function selectSpot(name) {
    activeSpot = name;
    renderSpots();
  }

  for (const name of ["ante", "bonus"]) {
    $(name).addEventListener("focus", () => selectSpot(name));
    $(name).addEventListener("click", () => selectSpot(name));
  }
  $("progressive").addEventListener("click", () => {
    slip.toggleProgressive();
    render();
  });

  $("chips").addEventListener("click", (event) => {
    const chip = event.target.closest("[data-chip]");
    if (!chip) return;
    if (!slip.add(activeSpot, units(chip.dataset.chip))) showError(t("Place an Ante first: the Bonus needs one (R2.1)."));
    else showError("");
    render();
  });

  const slipActions = { undo: () => slip.undo(), clear: () => slip.clear(), double: () => slip.double(),
                        rebet: () => { const last = lastBet(); if (last) slip.rebet(last); } };
  for (const [id, action] of Object.entries(slipActions)) {
    $(id).addEventListener("click", () => {
      action();
      if (slip.ante === 0n) selectSpot("ante");
      showError("");
      render();
    });
  }

  function decide(action) {
    const round = currentRound();
    if (!round || busy) return;
    // R8: name the street, so a decision sent as its window closes is refused, never applied to the next street
    const street = { pre_flop: "preflop", flop: "flop", turn: "turn" }[round.phase];
    const shown = () => {
      const now = currentRound();
      const bet = now && now.round_id === round.round_id ? you().bet : null;
      return Boolean(bet && street in bet.decisions);
    };
    send(`/api/rounds/${round.round_id}/decisions`, { action, street, request_id: requestId() }, shown);
  }

  $("decisions").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (button && !button.hidden && !button.disabled) decide(button.dataset.action);
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, select, textarea")) return;
    const action = SHORTCUTS[event.key.toLowerCase()];
    const button = action && document.querySelector(`#decisions [data-action="${action}"]`);
    if (button && !button.hidden && !button.disabled) {
      event.preventDefault();
      decide(action);
    }
  });

  $("reminder").addEventListener("change", async () => {
    try {
      await TableSession.setReminderMinutes(Number($("reminder").value));
      showError("");
    } catch (error) {
      showError(plainError(state, error));
    }
  });
  $("reality-continue").addEventListener("click", () => $("reality").close());

  $("leave").addEventListener("click", async () => {
    try {
      await api("POST", `/api/tables/${tableId}/leave`);
      window.location.assign("/");
    } catch (error) {
      showError(plainError(state, error));
    }
  });

  follow(`/events/tables/${tableId}`, acceptStreamed, (up) => {
    streamUp = up;
    showLink($("connection"), up);
  });
  render();
  setInterval(() => {
    TableFelt.renderClock(state, receivedAt);
    renderSession();
  }, 250);
});
