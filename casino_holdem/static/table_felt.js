/* The felt and the clock of the table page: the cards of the current round (never the last
 * round's during betting), the hands named precisely (R7), the showdown banner (R2.7) and the
 * countdown of the window in force. Needs common.js and table_view.js. */
"use strict";

const TableFelt = (() => {
  const { t, handName, card, faceDown, emptySlot, label, phaseName, secondsLeft } = Casino;
  const { $, setText, finished, cash, result, lastDecision } = TableView;
  const dealt = new Map();

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

  /** R2.7: the showdown's verdict for this player: win, lose or push, with the net amount. */
  function renderBanner(state, round, units) {
    const banner = $("banner");
    if (!finished(round)) {
      banner.hidden = true;
      return;
    }
    const mine = round.you;
    let text = result(round.result.result);
    let tone = "neutral";
    if (round.result.void) text = t("Round void: %(reason)s (R9). Your bets are returned.", { reason: label(round.result.void.reason) });
    else if (mine.has_bet && mine.net !== null) {
      const net = units(mine.net.replace("-", "")) * (mine.net.startsWith("-") ? -1n : 1n);
      tone = net > 0n ? "win" : net < 0n ? "lose" : "push";
      text = net > 0n ? t("You win %(amount)s", { amount: cash(state, mine.net) }) : net < 0n ? t("You lose %(amount)s", { amount: cash(state, mine.net.slice(1)) }) : t("Push: your stakes are returned");
      if (mine.bet.folded) text = `${text} · ${t(lastDecision(mine.bet).automatic ? "folded automatically (time ran out)" : "folded")}`;
    }
    banner.hidden = false;
    banner.className = `banner ${tone}`;
    setText("banner", text);
  }

  /** The felt shows the current round only: during betting its slots are empty (R2.1), never the
   * last round's cards; a finished round stays in view for the showdown pause (R2.7). */
  function render(state, units) {
    const round = state.round;
    const cards = round ? round.cards : { player: [], board: [], dealer: [] };
    const hands = (round && round.hands) || { player: null, dealer: null };
    const showdown = finished(round);
    document.querySelector(".felt").classList.toggle("betting", Boolean(round && round.phase === "betting"));
    const dealerHidden = cards.dealer.length === 0 && cards.player.length > 0 ? 2 : 0;
    const winner = showdown && round.result ? round.result.result : null;
    const best = { player: winner && winner !== "dealer" && hands.player ? hands.player.best : [],
                   dealer: winner && winner !== "player" && hands.dealer ? hands.dealer.best : [] };
    drawHand("dealer-cards", cards.dealer, 2, dealerHidden, best);
    drawHand("board-cards", cards.board, 5, 0, best);
    drawHand("player-cards", cards.player, 2, 0, best);
    setText("player-hand", hands.player ? handName(hands.player.name) : "");
    setText("dealer-hand", hands.dealer ? handName(hands.dealer.name) : "");
    $("board-cards").dataset.best = showdown && hands.player ? hands.player.best.join(" ") : "";
    setText("felt-caption", round && round.result ? result(round.result.result) : "");
    renderBanner(state, round, units);
  }

  /** The countdown on the server's clock (sent with the state, read at ``receivedAt``). */
  function renderClock(state, receivedAt) {
    const round = state.round;
    const left = round ? secondsLeft(round.deadline, state.server_time, receivedAt, round.repeats_every) : null;
    const span = round && round.phase === "betting" ? state.table.betting_seconds : state.table.decision_seconds;
    setText("phase", round ? `${phaseName(round.phase)} · ${t("round %(number)s", { number: round.number })}` : t("Waiting for a round"));
    setText("countdown", left === null || finished(round) ? "" : `${Math.ceil(left)} s`);
    const urgent = left !== null && left <= 3 && !finished(round);
    $("countdown").classList.toggle("urgent", urgent);
    $("bar").classList.toggle("urgent", urgent);
    $("bar").firstElementChild.style.width = left === null || finished(round) ? "0%" : `${Math.min(100, (100 * left) / span)}%`;
  }

  return { render, renderClock };
})();
