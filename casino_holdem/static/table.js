/* The table page: renders the state the server sends (services.viewing.table_view) and sends
 * bets and decisions to the API. Live from /events/tables/<id>; a reload or a dropped stream comes
 * back to the same round, which the dealer has moved on by R8 meanwhile. */
"use strict";

(() => {
  const { t, handName, api, toUnits, fromUnits, money, card, faceDown, emptySlot, element, label, phaseName, secondsLeft, follow,
          showLink } = Casino;
  const $ = (id) => document.getElementById(id);
  const BET_NAMES = ["ante", "bonus", "progressive", "flop", "turn", "river"];
  /** R2.4-R2.5: the Turn bet is made on the flop, the River bet on the turn. */
  const BET_LABELS = { river: "River (bet on the turn)" };
  const STREETS = { preflop: "Pre-flop", flop: "Flop", turn: "Turn" };
  const SHORTCUTS = { f: "fold", p: "flop", b: "bet", c: "check" };
  const FINISHED = ["settled", "void"];
  const RESULTS = { player: "Player wins", dealer: "Dealer wins", tie: "Tie" };

  let state = JSON.parse($("state").textContent);
  let receivedAt = performance.now();
  let activeSpot = "ante";
  let busy = false;
  let focusNext = false;
  let slip = new TableSlip();
  let slipRound = null;
  const tableId = state.table.id;
  const dealt = new Map();
  const units = (text) => toUnits(text, state.currency.decimals) ?? 0n;
  const amountOf = (count) => fromUnits(count, state.currency.decimals);
  const cash = (text) => money(text, state.currency);

  const currentRound = () => state.round;
  const you = () => (state.round && state.round.you) || { has_bet: false, allowed_actions: [] };
  const finished = (round) => Boolean(round && FINISHED.includes(round.phase));

  /** The round whose bets the "your bets" panel describes: yours now, else yours just finished. */
  function betRound() {
    if (state.round && state.round.you.has_bet) return state.round;
    if (state.last_round && state.last_round.you.has_bet) return state.last_round;
    return null;
  }

  function setText(id, text) {
    const node = $(id);
    if (node.textContent !== text) node.textContent = text;
  }

  /** R7: the five cards of each shown hand; the winner's (both at a tie) stand out. */
  function drawHand(id, codes, size, hidden, best) {
    const node = $(id);
    const key = `${codes.join(" ")}|${hidden}|${size}|${best.player.join(" ")}|${best.dealer.join(" ")}`;
    if (node.dataset.key === key) return;
    const before = dealt.get(id) || [];
    node.dataset.key = key;
    node.replaceChildren(...codes.map((code) => {
      const face = card(code, !before.includes(code));
      if (best.player.includes(code)) face.classList.add("best");
      if (best.dealer.includes(code)) face.classList.add("best-dealer");
      return face;
    }));
    for (let i = codes.length; i < size; i += 1) node.append(hidden > i - codes.length ? faceDown() : emptySlot());
    dealt.set(id, codes);
  }

  /** The felt shows the current round only: during betting its slots are empty (R2.1), never the
   * last round's cards; a finished round stays in view for the showdown pause (R2.7). */
  function renderFelt() {
    const round = currentRound();
    const cards = round ? round.cards : { player: [], board: [], dealer: [] };
    const hands = (round && round.hands) || { player: null, dealer: null };
    const showdown = finished(round);
    document.querySelector(".felt").classList.toggle("betting", Boolean(round && round.phase === "betting"));
    const dealerHidden = cards.dealer.length === 0 && cards.player.length > 0 ? 2 : 0;
    const result = showdown && round.result ? round.result.result : null;
    const best = { player: result && result !== "dealer" && hands.player ? hands.player.best : [],
                   dealer: result && result !== "player" && hands.dealer ? hands.dealer.best : [] };
    drawHand("dealer-cards", cards.dealer, 2, dealerHidden, best);
    drawHand("board-cards", cards.board, 5, 0, best);
    drawHand("player-cards", cards.player, 2, 0, best);
    setText("player-hand", hands.player ? handName(hands.player.name) : "");
    setText("dealer-hand", hands.dealer ? handName(hands.dealer.name) : "");
    $("board-cards").dataset.best = showdown && hands.player ? hands.player.best.join(" ") : "";
    setText("felt-caption", round && round.result ? t(RESULTS[round.result.result] || label(round.result.result)) : "");
    renderBanner(round);
  }

  /** R2.7: the showdown's verdict for this player: win, lose or push, with the net amount. */
  function renderBanner(round) {
    const banner = $("banner");
    if (!finished(round)) {
      banner.hidden = true;
      return;
    }
    const mine = round.you;
    let text = t(RESULTS[round.result.result] || label(round.result.result));
    let tone = "neutral";
    if (round.result.void) text = t("Round void: %(reason)s (R9). Your bets are returned.", { reason: label(round.result.void.reason) });
    else if (mine.has_bet && mine.net !== null) {
      const net = units(mine.net.replace("-", "")) * (mine.net.startsWith("-") ? -1n : 1n);
      tone = net > 0n ? "win" : net < 0n ? "lose" : "push";
      text = net > 0n ? t("You win %(amount)s", { amount: cash(mine.net) }) : net < 0n ? t("You lose %(amount)s", { amount: cash(mine.net.slice(1)) }) : t("Push: your stakes are returned");
      if (mine.bet.folded) text = `${text} · ${t(lastDecision(mine.bet).automatic ? "folded automatically (time ran out)" : "folded")}`;
    }
    banner.hidden = false;
    banner.className = `banner ${tone}`;
    setText("banner", text);
  }

  function renderClock() {
    const round = currentRound();
    const left = round ? secondsLeft(round.deadline, state.server_time, receivedAt) : null;
    const span = round && round.phase === "betting" ? state.table.betting_seconds : state.table.decision_seconds;
    setText("phase", round ? `${phaseName(round.phase)} · ${t("round %(number)s", { number: round.number })}` : t("Waiting for a round"));
    setText("countdown", left === null || finished(round) ? "" : `${Math.ceil(left)} s`);
    const urgent = left !== null && left <= 3 && !finished(round);
    $("countdown").classList.toggle("urgent", urgent);
    $("bar").classList.toggle("urgent", urgent);
    $("bar").firstElementChild.style.width = left === null || finished(round) ? "0%" : `${Math.min(100, (100 * left) / span)}%`;
  }

  function decisionPrompt(round, mine) {
    const costs = mine.costs;
    if (round.phase === "pre_flop") return t("Your decision: Fold, or Flop 2× for %(amount)s.", { amount: cash(costs.flop) });
    return t("%(street)s dealt. Bet 1× for %(amount)s, or Check.", { street: phaseName(round.phase), amount: cash(costs.bet) });
  }

  /** Decisions in the order of the streets (R2): JSON objects carry no order of their own. */
  function inStreetOrder(decisions) {
    return Object.keys(STREETS).filter((street) => street in decisions).map((street) => [street, decisions[street]]);
  }

  function lastDecision(bet) {
    const decisions = inStreetOrder(bet.decisions);
    return decisions.length ? decisions[decisions.length - 1][1] : {};
  }

  function lastDecisionText(mine) {
    const decisions = inStreetOrder(mine.bet.decisions);
    if (!decisions.length) return "";
    const [street, decision] = decisions[decisions.length - 1];
    if (decision.automatic) {
      const why = decision.automatic === "timeout" ? "Time ran out: the dealer chose %(action)s for you (R8)."
        : "You were disconnected: the dealer chose %(action)s for you (R8).";
      return t(why, { action: label(decision.action) });
    }
    return `${t(STREETS[street])}: ${label(decision.action)}.`;
  }

  function statusText() {
    const round = currentRound();
    if (!round) return t(state.table.is_open ? "Waiting for the dealer to open a round." : "This table is closed.");
    const mine = you();
    if (round.phase === "betting") {
      if (mine.has_bet) return t("Bets placed. The cards are dealt when betting closes.");
      return t("Round %(number)s: add chips to the Ante, then Place bets. Bonus and Progressive need an Ante.", { number: round.number });
    }
    if (finished(round)) return t("Round %(number)s is over. The next betting window opens shortly.", { number: round.number });
    if (!mine.has_bet) return t("Round %(number)s is in play. You can bet on the next one.", { number: round.number });
    if (mine.allowed_actions.length) return decisionPrompt(round, mine);
    const waiting = t(mine.bet.folded ? "You are out of this round." : "Waiting for the next card.");
    return `${lastDecisionText(mine)} ${waiting}`.trim();
  }

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
    return Boolean(round && round.phase === "betting" && !you().has_bet && state.table.is_open);
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

  function betRow(name, bet, outcome) {
    const row = element("tr");
    const line = outcome && outcome[name];
    const head = element("th", "", BET_LABELS[name] ? t(BET_LABELS[name]) : label(name));
    head.scope = "row";
    row.append(head, element("td", "num", cash(bet[name])));
    const result = element("td", line ? `outcome-${line.outcome}` : "", line ? label(line.outcome) : t("in play"));
    row.append(result, element("td", "num", line ? cash(line.returned) : "—"));
    return row;
  }

  function renderMyBet() {
    const round = betRound();
    $("my-bet").hidden = !round;
    if (!round) return;
    const mine = round.you;
    const bet = mine.bet;
    setText("my-bet-title", t(finished(round) ? "Your bets · round %(number)s (finished)" : "Your bets · round %(number)s", { number: round.number }));
    const rows = BET_NAMES.filter((name) => bet[name] !== "0").map((name) => betRow(name, bet, bet.outcome));
    $("bet-rows").replaceChildren(...rows);
    $("decision-list").replaceChildren(...inStreetOrder(bet.decisions).map(([street, decision]) => {
      const item = element("li", "", `${t(STREETS[street])}: `);
      item.append(element("strong", "", label(decision.action)));
      if (decision.automatic) item.append(" ", element("span", "auto", `${t("automatic")} · ${t(decision.automatic)}`));
      return item;
    }));
    const awards = (round.result && round.result.awards) || [];
    $("awards").replaceChildren(...awards.map((award) => element("p", "award",
      `Jackpot ${award.table}: ${label(award.hand)}${award.street ? ` on the ${award.street}` : ""}, shared by ` +
      `${award.share_of} — you won ${cash(award.amount)}`)));
    const net = mine.net;
    $("net").className = `net${net === null ? "" : net.startsWith("-") ? " minus" : net === "0" ? "" : " plus"}`;
    setText("net", net === null ? `${t("Staked")} ${cash(mine.staked)}` : `${t("Net")} ${cash(net)}`);
  }

  /** The results strip: the table's last rounds, who won and with what (R3). */
  function renderStrip() {
    const key = (state.recent || []).map((r) => r.number).join(",");
    const strip = $("strip");
    if (strip.dataset.key === key) return;
    strip.dataset.key = key;
    strip.replaceChildren(...(state.recent || []).map((r) => {
      const item = element("li", `result-${r.void ? "void" : r.result}`);
      item.append(element("strong", "", `#${r.number} ${t(r.void ? "Void" : RESULTS[r.result] || label(r.result))}`));
      if (r.player) item.append(element("span", "", `${t("Player")}: ${handName(r.player)}`));
      if (r.dealer) item.append(element("span", "", `${t("Dealer")}: ${handName(r.dealer)}`));
      return item;
    }));
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
    const round = currentRound();
    setText("round-number", round ? t(round.bettor_count === 1 ? "Round %(number)s · %(count)s betting player · %(progressive)s in the Progressive"
      : "Round %(number)s · %(count)s betting players · %(progressive)s in the Progressive",
      { number: round.number, count: round.bettor_count, progressive: round.progressive_participants }) : "");
    setText("commitment", round ? round.commitment : "");
    setText("commitment-round", round ? String(round.number) : "");
    syncSlip();
    renderFelt();
    renderClock();
    setText("status", statusText());
    renderNotices(round);
    renderSpots();
    renderBetForm();
    renderDecisions();
    renderMyBet();
    renderStrip();
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

  /** The server's refusal in the player's words: no rule numbers or internal wording. */
  function plainError(error) {
    const limits = state.table.limits;
    if (error.field === "ante") return t("The Ante must be between %(low)s and %(high)s.", { low: cash(limits.ante_min), high: cash(limits.ante_max) });
    if (error.field === "bonus") return t("The Bonus must be between %(low)s and %(high)s, or nothing.", { low: cash(limits.bonus_min), high: cash(limits.bonus_max) });
    if (error.status === 409) return t("Too late: that window has closed.");
    if (/balance|funds/i.test(error.message)) return t("Your balance is not enough for these bets and the later ones they hold back.");
    return String(error.message || "Something went wrong.").replace(/^R\d+(\.\d+)?:\s*/, "").replace(/\s*\(R\d+(\.\d+)?\)$/, "");
  }

  function showError(message) {
    setText("error", message || "");
  }

  function requestId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** Send once, and once more with the same request id if the network failed (idempotent). */
  async function send(path, body) {
    busy = true;
    focusNext = true;
    renderDecisions();
    try {
      try {
        await api("POST", path, body);
      } catch (error) {
        if (error.status !== undefined) throw error;
        await api("POST", path, body);
      }
      showError("");
      return true;
    } catch (error) {
      showError(plainError(error));
      return false;
    } finally {
      busy = false;
      try {
        accept(await api("GET", `/api/tables/${tableId}`), performance.now());
      } catch (error) {
        render();
      }
    }
  }

  $("bet-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (slip.ante === 0n) return;
    const bets = { ante: amountOf(slip.ante), bonus: amountOf(slip.bonus), progressive: slip.progressive };
    if (await send(`/api/tables/${tableId}/bets`, { ...bets, request_id: requestId() })) {
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
    send(`/api/rounds/${round.round_id}/decisions`, { action, street, request_id: requestId() });
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

  $("reminder").value = String(TableSession.reminderMinutes());
  $("reminder").addEventListener("change", () => TableSession.setReminderMinutes(Number($("reminder").value)));
  $("reality-continue").addEventListener("click", () => $("reality").close());

  $("leave").addEventListener("click", async () => {
    try {
      await api("POST", `/api/tables/${tableId}/leave`);
      window.location.assign("/");
    } catch (error) {
      showError(plainError(error));
    }
  });

  follow(`/events/tables/${tableId}`, accept, (up) => showLink($("connection"), up));
  render();
  setInterval(() => {
    renderClock();
    renderSession();
  }, 250);
})();
