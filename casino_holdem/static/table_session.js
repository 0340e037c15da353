/* Responsible play at the table: how long this session has lasted and its net result, and an
 * optional reality check every N minutes (the player's setting, kept with their account:
 * PUT /api/me/settings). */
"use strict";

const TableSession = (() => {
  const KEY = "casino-session";

  function load(balance) {
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (saved && saved.currency === balance.currency) return saved;
    const fresh = { started: Date.now(), balance: balance.amount, currency: balance.currency, reminded: Date.now() };
    sessionStorage.setItem(KEY, JSON.stringify(fresh));
    return fresh;
  }

  function save(session) {
    sessionStorage.setItem(KEY, JSON.stringify(session));
  }

  /** "1:05" for 65 minutes, "0:07" for 7. */
  function duration(ms) {
    const minutes = Math.floor(ms / 60000);
    return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`;
  }

  /** The player's interval, as the server keeps it with their account (the page shows it chosen). */
  function reminderMinutes() {
    return Number(document.getElementById("reminder").value || "0");
  }

  /** Keep the interval with the player's account, so that it follows them to other devices. */
  function setReminderMinutes(minutes) {
    return Casino.api("PUT", "/api/me/settings", { reality_check_minutes: minutes });
  }

  /** The session line, and the reality check when it is due; ``units`` reads an amount into a
   * count of the smallest digit and ``cash`` writes such a count (signed) as money. */
  function render(state, units, cash) {
    const now = { amount: state.balance.balance, currency: state.currency.code };
    const session = load(now);
    const net = cash(units(now.amount) - units(session.balance));
    const line = document.getElementById("session");
    const text = Casino.t("Session %(time)s · net %(net)s", { time: duration(Date.now() - session.started), net });
    if (line.textContent !== text) line.textContent = text;
    const minutes = reminderMinutes();
    const dialog = document.getElementById("reality");
    if (minutes > 0 && Date.now() - session.reminded >= minutes * 60000 && !dialog.open) {
      session.reminded = Date.now();
      save(session);
      document.getElementById("reality-text").textContent =
        Casino.t("You have been playing for %(time)s (hours:minutes); your net result is %(net)s.",
                 { time: duration(Date.now() - session.started), net });
      dialog.showModal();
    }
  }

  return { render, reminderMinutes, setReminderMinutes };
})();
