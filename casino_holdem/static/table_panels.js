/* The panels of the table page: "Your bets" (stakes, results, decisions, awards and net), the
 * results strip of the last rounds (R3) and the progressive panel's last jackpot wins (R5), each
 * drawn from the state the server sends. Needs common.js and table_view.js. */
"use strict";

const TablePanels = (() => {
  const { t, handName, element, label, when } = Casino;
  const { $, setText, finished, cash, result, STREETS, inStreetOrder } = TableView;
  const BET_NAMES = ["ante", "bonus", "progressive", "flop", "turn", "river"];
  /** R2.4-R2.5: the Turn bet is made on the flop, the River bet on the turn. */
  const BET_LABELS = { river: "River (bet on the turn)" };

  /** The round whose bets the "your bets" panel describes: yours now, else yours just finished. */
  function betRound(state) {
    if (state.round && state.round.you.has_bet) return state.round;
    if (state.last_round && state.last_round.you.has_bet) return state.last_round;
    return null;
  }

  function betRow(state, name, bet, outcome) {
    const row = element("tr");
    const line = outcome && outcome[name];
    const head = element("th", "", BET_LABELS[name] ? t(BET_LABELS[name]) : label(name));
    head.scope = "row";
    row.append(head, element("td", "num", cash(state, bet[name])));
    const shown = element("td", line ? `outcome-${line.outcome}` : "", line ? label(line.outcome) : t("in play"));
    row.append(shown, element("td", "num", line ? cash(state, line.returned) : "—"));
    return row;
  }

  /** R5: one share of a prize, with how many shared it. */
  function awardText(state, award) {
    const args = { prize: award.table, hand: label(award.hand), count: award.share_of, amount: cash(state, award.amount) };
    return award.street ? t("Jackpot %(prize)s: %(hand)s on the %(street)s, shared by %(count)s — you won %(amount)s",
                            { ...args, street: t(label(award.street)) })
      : t("Jackpot %(prize)s: %(hand)s, shared by %(count)s — you won %(amount)s", args);
  }

  function renderMyBet(state) {
    const round = betRound(state);
    $("my-bet").hidden = !round;
    if (!round) return;
    const mine = round.you;
    const bet = mine.bet;
    setText("my-bet-title", t(finished(round) ? "Your bets · round %(number)s (finished)" : "Your bets · round %(number)s", { number: round.number }));
    const rows = BET_NAMES.filter((name) => bet[name] !== "0").map((name) => betRow(state, name, bet, bet.outcome));
    $("bet-rows").replaceChildren(...rows);
    $("decision-list").replaceChildren(...inStreetOrder(bet.decisions).map(([street, decision]) => {
      const item = element("li", "", `${t(STREETS[street])}: `);
      item.append(element("strong", "", label(decision.action)));
      if (decision.automatic) item.append(" ", element("span", "auto", `${t("automatic")} · ${t(decision.automatic)}`));
      return item;
    }));
    const awards = (round.result && round.result.awards) || [];
    $("awards").replaceChildren(...awards.map((award) => element("p", "award", awardText(state, award))));
    const net = mine.net;
    $("net").className = `net${net === null ? "" : net.startsWith("-") ? " minus" : net === "0" ? "" : " plus"}`;
    setText("net", net === null ? `${t("Staked")} ${cash(state, mine.staked)}` : `${t("Net")} ${cash(state, net)}`);
  }

  /** The results strip: the table's last rounds, who won and with what (R3). */
  function renderStrip(state) {
    const key = (state.recent || []).map((r) => r.number).join(",");
    const strip = $("strip");
    if (strip.dataset.key === key) return;
    strip.dataset.key = key;
    strip.replaceChildren(...(state.recent || []).map((r) => {
      const item = element("li", `result-${r.void ? "void" : r.result}`);
      item.append(element("strong", "", `#${r.number} ${r.void ? t("Void") : result(r.result)}`));
      if (r.player) item.append(element("span", "", `${t("Player")}: ${handName(r.player)}`));
      if (r.dealer) item.append(element("span", "", `${t("Dealer")}: ${handName(r.dealer)}`));
      return item;
    }));
  }

  /** The progressive panel: the pool's last jackpot wins, in the player's currency (R5, R6). */
  function renderWins(state) {
    const wins = state.jackpot_wins || [];
    const body = $("jackpot-wins");
    const key = wins.map((win) => `${win.round_id}${win.prize}${win.amount}`).join(",");
    if (body.dataset.key === key) return;
    body.dataset.key = key;
    $("no-jackpot-wins").hidden = wins.length > 0;
    body.replaceChildren(...wins.map((win) => {
      const row = element("tr");
      const head = element("th", "", `${win.prize} · ${label(win.hand)}${win.street ? ` · ${t(label(win.street))}` : ""}`);
      head.scope = "row";
      row.append(head, element("td", "num", cash(state, win.amount)), element("td", "", win.table),
                 element("td", "", when(win.at)), element("td", "num", String(win.share_of)));
      return row;
    }));
  }

  return { renderMyBet, renderStrip, renderWins };
})();
