/* The table page: renders the state the server sends (services.viewing.table_view) and sends
 * bets and decisions to the API. Live from /events/tables/<id>; a reload or a dropped stream comes
 * back to the same round, which the dealer has moved on by R8 meanwhile. */
"use strict";

(() => {
  const { api, toUnits, fromUnits, money, card, faceDown, emptySlot, element, label, phaseName, secondsLeft, follow,
          showLink } = Casino;
  const $ = (id) => document.getElementById(id);
  const BET_NAMES = ["ante", "bonus", "progressive", "flop", "turn", "river"];
  const STREETS = { preflop: "Pre-flop", flop: "Flop", turn: "Turn" };
  const SHORTCUTS = { f: "fold", p: "flop", b: "bet", c: "check" };

  let state = JSON.parse($("state").textContent);
  let receivedAt = performance.now();
  let activeSpot = "ante";
  let busy = false;
  const tableId = state.table.id;
  const dealt = new Map();

  const currentRound = () => state.round;
  const you = () => (state.round && state.round.you) || { has_bet: false, allowed_actions: [] };

  /** The round whose cards the felt shows: the current one once dealt, else the last showdown. */
  function feltRound() {
    const round = currentRound();
    if (round && round.phase !== "betting") return round;
    return state.last_round || round;
  }

  /** The round the "your bets" panel describes: yours now, else yours just finished. */
  function betRound() {
    if (state.round && state.round.you.has_bet) return state.round;
    if (state.last_round && state.last_round.you.has_bet) return state.last_round;
    return null;
  }

  function setText(id, text) {
    const node = $(id);
    if (node.textContent !== text) node.textContent = text;
  }

  function drawHand(id, codes, size, hidden) {
    const node = $(id);
    const key = `${codes.join(" ")}|${hidden}|${size}`;
    if (node.dataset.key === key) return;
    const before = dealt.get(id) || [];
    node.dataset.key = key;
    node.replaceChildren(...codes.map((code) => card(code, !before.includes(code))));
    for (let i = codes.length; i < size; i += 1) node.append(hidden > i - codes.length ? faceDown() : emptySlot());
    dealt.set(id, codes);
  }

  function renderFelt() {
    const round = feltRound();
    const cards = round ? round.cards : { player: [], board: [], dealer: [] };
    const dealerHidden = cards.dealer.length === 0 && cards.player.length > 0 ? 2 : 0;
    drawHand("dealer-cards", cards.dealer, 2, dealerHidden);
    drawHand("board-cards", cards.board, 5, 0);
    drawHand("player-cards", cards.player, 2, 0);
    const result = round && round.result;
    setText("player-hand", result ? label(result.player_hand) : "");
    setText("dealer-hand", result ? label(result.dealer_hand) : "");
    let caption = "";
    if (round && round !== currentRound()) caption = `Last round #${round.number}: ${label(result.result)}`;
    else if (result) caption = label(result.result);
    setText("felt-caption", caption);
  }

  function renderClock() {
    const round = currentRound();
    const left = round ? secondsLeft(round.deadline, state.server_time, receivedAt) : null;
    const span = round && round.phase === "betting" ? state.table.betting_seconds : state.table.decision_seconds;
    setText("phase", round ? `${phaseName(round.phase)} · round ${round.number}` : "Waiting for a round");
    setText("countdown", left === null ? "" : `${Math.ceil(left)} s`);
    const urgent = left !== null && left <= 3;
    $("countdown").classList.toggle("urgent", urgent);
    $("bar").classList.toggle("urgent", urgent);
    $("bar").firstElementChild.style.width = left === null ? "0%" : `${Math.min(100, (100 * left) / span)}%`;
  }

  function decisionPrompt(round, mine) {
    const costs = mine.costs;
    if (round.phase === "pre_flop") return `Your decision: Fold, or Flop 2× for ${money(costs.flop, state.currency)}.`;
    return `${phaseName(round.phase)} dealt. Bet 1× for ${money(costs.bet, state.currency)}, or Check.`;
  }

  /** Decisions in the order of the streets (R2): JSON objects carry no order of their own. */
  function inStreetOrder(decisions) {
    return Object.keys(STREETS).filter((street) => street in decisions).map((street) => [street, decisions[street]]);
  }

  function lastDecisionText(mine) {
    const decisions = inStreetOrder(mine.bet.decisions);
    if (!decisions.length) return "";
    const [street, decision] = decisions[decisions.length - 1];
    const how = decision.automatic ? ` automatically (${decision.automatic === "timeout" ? "time ran out" : "disconnected"}, R8)` : "";
    return `${STREETS[street]}: ${label(decision.action)}${how}.`;
  }

  function statusText() {
    const round = currentRound();
    if (!round) return state.table.is_open ? "Waiting for the dealer to open a round." : "This table is closed.";
    const mine = you();
    if (round.phase === "betting") {
      const last = state.last_round;
      const outcome = last && last.you.has_bet && (last.you.bet.folded ? "you folded" : label(last.result.result));
      const recap = outcome && !mine.has_bet
        ? `Round ${last.number}: ${outcome}, net ${money(last.you.net, state.currency)}. ` : "";
      if (mine.has_bet) return "Bets placed. The cards are dealt when betting closes.";
      return `${recap}Place your bets for round ${round.number}: an Ante, and if you like a Bonus and the Progressive.`;
    }
    if (!mine.has_bet) return `Round ${round.number} is in play. You can bet on the next one.`;
    if (mine.allowed_actions.length) return decisionPrompt(round, mine);
    if (round.phase === "settled" || round.phase === "void") return `Round ${round.number}: ${label(round.result.result)}.`;
    const waiting = mine.bet.folded ? "You are out of this round." : "Waiting for the next card.";
    return `${lastDecisionText(mine)} ${waiting}`.trim();
  }

  /** A chip's face: "25000" → "25k" so that it fits the chip. */
  function chipLabel(value) {
    return /^\d{2,}000$/.test(value) ? `${value.slice(0, -3)}k` : value;
  }

  function renderBetForm() {
    const round = currentRound();
    const open = Boolean(round && round.phase === "betting" && !you().has_bet && state.table.is_open);
    $("bet-form").hidden = !open;
    if (!open) return;
    const limits = state.table.limits;
    setText("limits", `Ante ${money(limits.ante_min, state.currency)} – ${money(limits.ante_max, state.currency)} · ` +
                      `Bonus ${money(limits.bonus_min, state.currency)} – ${money(limits.bonus_max, state.currency)}`);
    setText("progressive-amount", money(state.table.progressive_bet, state.currency));
    const chips = $("chips");
    if (chips.dataset.key !== state.table.chips.join(",")) {
      chips.dataset.key = state.table.chips.join(",");
      chips.replaceChildren(...state.table.chips.map((value) => {
        const button = element("button", "chip", chipLabel(value));
        button.type = "button";
        button.dataset.chip = value;
        button.setAttribute("aria-label", `Add ${money(value, state.currency)}`);
        return button;
      }));
    }
  }

  function renderDecisions() {
    const round = currentRound();
    const mine = you();
    for (const button of document.querySelectorAll("#decisions button")) {
      const action = button.dataset.action;
      button.hidden = !mine.allowed_actions.includes(action);
      button.disabled = busy;
      const amount = button.querySelector(".amount");
      if (amount && mine.costs) amount.textContent = money(action === "flop" ? mine.costs.flop : mine.costs.bet, state.currency);
    }
    $("decisions").dataset.round = round ? round.round_id : "";
  }

  function betRow(name, bet, outcome) {
    const row = element("tr");
    const line = outcome && outcome[name];
    const head = element("th", "", label(name));
    head.scope = "row";
    row.append(head, element("td", "num", money(bet[name], state.currency)));
    const result = element("td", line ? `outcome-${line.outcome}` : "", line ? label(line.outcome) : "in play");
    row.append(result, element("td", "num", line ? money(line.returned, state.currency) : "—"));
    return row;
  }

  function renderMyBet() {
    const round = betRound();
    $("my-bet").hidden = !round;
    if (!round) return;
    const mine = round.you;
    const bet = mine.bet;
    setText("my-bet-title", `Your bets · round ${round.number}${round === currentRound() ? "" : " (finished)"}`);
    const rows = BET_NAMES.filter((name) => bet[name] !== "0").map((name) => betRow(name, bet, bet.outcome));
    $("bet-rows").replaceChildren(...rows);
    $("decision-list").replaceChildren(...inStreetOrder(bet.decisions).map(([street, decision]) => {
      const item = element("li", "", `${STREETS[street]}: `);
      item.append(element("strong", "", label(decision.action)));
      if (decision.automatic) item.append(" ", element("span", "auto", `automatic · ${decision.automatic}`));
      return item;
    }));
    const awards = (round.result && round.result.awards) || [];
    $("awards").replaceChildren(...awards.map((award) => element("p", "award",
      `Jackpot ${award.table}: ${label(award.hand)}${award.street ? ` on the ${award.street}` : ""}, shared by ` +
      `${award.share_of} — you won ${money(award.amount, state.currency)}`)));
    const net = mine.net;
    $("net").className = `net${net === null ? "" : net.startsWith("-") ? " minus" : net === "0" ? "" : " plus"}`;
    setText("net", net === null ? `Staked ${money(mine.staked, state.currency)}` : `Net ${money(net, state.currency)}`);
  }

  function render() {
    setText("jackpot", money(state.table.jackpot, state.currency));
    setText("balance", money(state.balance.balance, state.currency));
    setText("available", money(state.balance.available, state.currency));
    const round = currentRound();
    setText("round-number", round ? `Round ${round.number} · ${round.bettor_count} betting` : "");
    setText("commitment", round ? round.commitment : "");
    setText("commitment-round", round ? String(round.number) : "");
    renderFelt();
    renderClock();
    setText("status", statusText());
    renderBetForm();
    renderDecisions();
    renderMyBet();
  }

  function accept(payload, at) {
    state = payload;
    receivedAt = at;
    render();
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
    renderDecisions();
    try {
      try {
        await api("POST", path, body);
      } catch (error) {
        if (error.status !== undefined) throw error;
        await api("POST", path, body);
      }
      showError("");
      accept(await api("GET", `/api/tables/${tableId}`), performance.now());
    } catch (error) {
      showError(error.message);
    } finally {
      busy = false;
      renderDecisions();
    }
  }

  function amount(input, name) {
    const text = input.value.trim() || "0";
    if (toUnits(text, state.currency.decimals) === null) {
      input.setAttribute("aria-invalid", "true");
      throw new Error(`${label(name)}: enter an amount such as ${fromUnits(100n * 10n ** BigInt(state.currency.decimals), state.currency.decimals)}`);
    }
    input.removeAttribute("aria-invalid");
    return text;
  }

  $("bet-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let bets;
    try {
      bets = { ante: amount($("ante"), "ante"), bonus: amount($("bonus"), "bonus"), progressive: $("progressive").checked };
    } catch (error) {
      showError(error.message);
      return;
    }
    send(`/api/tables/${tableId}/bets`, { ...bets, request_id: requestId() });
  });

  function selectSpot(name) {
    activeSpot = name;
    for (const spot of document.querySelectorAll(".spot[data-spot]")) spot.classList.toggle("active", spot.dataset.spot === name);
  }

  for (const name of ["ante", "bonus"]) $(name).addEventListener("focus", () => selectSpot(name));

  $("chips").addEventListener("click", (event) => {
    const chip = event.target.closest("[data-chip]");
    if (!chip) return;
    const decimals = state.currency.decimals;
    const input = $(activeSpot);
    const current = toUnits(input.value.trim() || "0", decimals) ?? 0n;
    input.value = fromUnits(current + toUnits(chip.dataset.chip, decimals), decimals);
    input.removeAttribute("aria-invalid");
  });

  $("clear").addEventListener("click", () => {
    $("ante").value = "";
    $("bonus").value = "";
    $("progressive").checked = false;
    selectSpot("ante");
  });

  function decide(action) {
    const round = currentRound();
    if (!round || busy) return;
    send(`/api/rounds/${round.round_id}/decisions`, { action, request_id: requestId() });
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

  $("leave").addEventListener("click", async () => {
    try {
      await api("POST", `/api/tables/${tableId}/leave`);
      window.location.assign("/");
    } catch (error) {
      showError(error.message);
    }
  });

  follow(`/events/tables/${tableId}`, accept, (up) => showLink($("connection"), up));
  render();
  setInterval(renderClock, 250);
})();
