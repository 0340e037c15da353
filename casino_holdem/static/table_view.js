/* What the table page says, from the state the server sends (services.viewing.table_view): the
 * helpers every part of the page shares and the status line's words. Loaded before the page's
 * other table_*.js files; nothing here talks to the server. */
"use strict";

const TableView = (() => {
  const { t, money, label, phaseName } = Casino;
  const $ = (id) => document.getElementById(id);
  const FINISHED = ["settled", "void"];
  const STREETS = { preflop: "Pre-flop", flop: "Flop", turn: "Turn" };
  /** R3: a finished round's result as the server names it (core.settlement.Result) → its words. */
  const RESULTS = { player_wins: "Player wins", dealer_wins: "Dealer wins", tie: "Tie", void: "Void" };

  function setText(id, text) {
    const node = $(id);
    if (node.textContent !== text) node.textContent = text;
  }

  const finished = (round) => Boolean(round && FINISHED.includes(round.phase));
  const you = (state) => (state.round && state.round.you) || { has_bet: false, allowed_actions: [] };
  const cash = (state, text) => money(text, state.currency);
  const result = (slug) => t(RESULTS[slug] || label(slug));

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

  function decisionPrompt(state, round, mine) {
    const costs = mine.costs;
    if (round.phase === "pre_flop") return t("Your decision: Fold, or Flop 2× for %(amount)s.", { amount: cash(state, costs.flop) });
    return t("%(street)s dealt. Bet 1× for %(amount)s, or Check.", { street: phaseName(round.phase), amount: cash(state, costs.bet) });
  }

  /** The status line: what is happening and what the player may do now (R2, R8). */
  function statusText(state) {
    const round = state.round;
    const mine = you(state);
    // a suspended table takes no bet and opens no round; a round already dealt finishes by the rules
    if (state.table.suspended && (!round || finished(round) || !mine.has_bet)) return t("This table is suspended: it takes no bets until it resumes.");
    if (!round) return t(state.table.is_open ? "Waiting for the dealer to open a round." : "This table is closed.");
    if (round.phase === "betting") {
      if (mine.has_bet) return t("Bets placed. The cards are dealt when betting closes.");
      return t("Round %(number)s: add chips to the Ante, then Place bets. Bonus and Progressive need an Ante.", { number: round.number });
    }
    if (finished(round)) return t("Round %(number)s is over. The next betting window opens shortly.", { number: round.number });
    if (!mine.has_bet) return t("Round %(number)s is in play. You can bet on the next one.", { number: round.number });
    if (mine.allowed_actions.length) return decisionPrompt(state, round, mine);
    const waiting = t(mine.bet.folded ? "You are out of this round." : "Waiting for the next card.");
    return `${lastDecisionText(mine)} ${waiting}`.trim();
  }

  /** The server's refusal in the player's words: no rule numbers or internal wording. */
  function plainError(state, error) {
    const limits = state.table.limits;
    const between = { low: cash(state, limits.ante_min), high: cash(state, limits.ante_max) };
    if (error.field === "ante") return t("The Ante must be between %(low)s and %(high)s.", between);
    if (error.field === "bonus") return t("The Bonus must be between %(low)s and %(high)s, or nothing.", { low: cash(state, limits.bonus_min), high: cash(state, limits.bonus_max) });
    if (error.status === 409) return t("Too late: that window has closed.");
    if (/balance|funds/i.test(error.message)) return t("Your balance is not enough for these bets and the later ones they hold back.");
    return String(error.message || "Something went wrong.").replace(/^R\d+(\.\d+)?:\s*/, "").replace(/\s*\(R\d+(\.\d+)?\)$/, "");
  }

  return { $, setText, finished, you, cash, result, STREETS, inStreetOrder, lastDecision, statusText, plainError };
})();
