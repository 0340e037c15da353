/* Shared helpers of the pages: the API with its CSRF header, exact amounts, cards, live streams.
 * Amounts arrive from the server as decimal strings and are only formatted here; the one sum a
 * page makes (chips on a bet spot) is done on BigInt counts of the currency's smallest digit. */
"use strict";

const Casino = (() => {
  const MESSAGES = {};
  /** The page's language (web/i18n.py), the locale of every word, amount and time shown. */
  const LOCALE = document.documentElement.lang || "en";
  /** Settles once the language's catalogue (/i18n/<lang>.json) is in; pages render after it. */
  const catalogue = document.querySelector('meta[name="messages"]');
  const ready = LOCALE === "en" || !catalogue ? Promise.resolve()
    : fetch(catalogue.content, { credentials: "same-origin" }).then((response) => response.json())
      .then((messages) => { Object.assign(MESSAGES, messages); }).catch(() => {});

  /** The player's language: the message id's translation (web/i18n.py), with %(name)s filled in. */
  function t(id, args) {
    const text = MESSAGES[id] || id;
    return args ? text.replace(/%\((\w+)\)s/g, (whole, key) => (key in args ? args[key] : whole)) : text;
  }

  /** A precise hand name (core/hand_names.py): its message id, its rank names translated too. */
  function handName(name) {
    if (!name) return "";
    return t(name.id, Object.fromEntries(Object.entries(name.args).map(([key, rank]) => [key, t(rank)])));
  }

  const csrfToken = () => document.querySelector('meta[name="csrf-token"]').content;

  /** Call the JSON API; a refusal throws an Error carrying the server's message and field. */
  async function api(method, path, body) {
    const response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrfToken() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const problem = data.error || {};
      const error = new Error(problem.message || `${response.status} ${response.statusText}`);
      error.status = response.status;
      error.field = problem.field || null;
      throw error;
    }
    return data;
  }

  /** "12.5" with 2 decimals → 1250n; null when the text is not such an amount. */
  function toUnits(text, decimals) {
    const match = /^\s*(\d+)(?:\.(\d*))?\s*$/.exec(String(text));
    if (!match || (match[2] || "").length > decimals) return null;
    return BigInt(match[1] + (match[2] || "").padEnd(decimals, "0"));
  }

  /** 1250n with 2 decimals → "12.5" (the shortest exact text, as the server writes amounts). */
  function fromUnits(units, decimals) {
    if (units < 0n) return `-${fromUnits(-units, decimals)}`;
    const digits = units.toString().padStart(decimals + 1, "0");
    const whole = digits.slice(0, digits.length - decimals);
    const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
    return fraction ? `${whole}.${fraction}` : whole;
  }

  const NUMBERS = new Map();

  /** "-1234.5" in {code: "USD", decimals: 2} → "USD -1,234.50", grouped for the page's locale as
   * the server's Babel does (web/formatting.py). Intl reads the decimal string exactly: no float. */
  function money(text, currency) {
    if (text === null || text === undefined) return "—";
    const raw = String(text);
    const fraction = (raw.split(".")[1] || "").length;
    const exact = fraction <= currency.decimals;  // a whole number of the currency's units (R6)
    const key = exact ? currency.decimals : 0;
    if (!NUMBERS.has(key)) {
      NUMBERS.set(key, new Intl.NumberFormat(LOCALE, { minimumFractionDigits: key, maximumFractionDigits: 20 }));
    }
    return `${currency.code} ${NUMBERS.get(key).format(raw)}`;
  }

  const TIMES = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC",
                                                  calendar: "gregory" });

  /** An ISO 8601 time as the page's locale writes it in UTC, as the server's Babel does. */
  const when = (iso) => (iso ? TIMES.format(new Date(iso)) : "—");

  const SUITS = { c: ["♣", "clubs", "black"], d: ["♦", "diamonds", "red"], h: ["♥", "hearts", "red"],
                  s: ["♠", "spades", "black"] };
  const RANKS = { T: ["10", "ten"], J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"], A: ["A", "ace"] };

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A face-up card, the same markup as templates/_cards.html. */
  function card(code, fresh) {
    const [symbol, suitName, colour] = SUITS[code[1]];
    const [rank, rankName] = RANKS[code[0]] || [code[0], code[0]];
    const node = element("span", `card ${colour}${fresh ? " new" : ""}`);
    node.dataset.card = code;
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", `${rankName} of ${suitName}`);
    node.append(element("span", "rank", rank), element("span", "suit", symbol));
    return node;
  }

  function faceDown() {
    const node = element("span", "card back");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", "face-down card");
    return node;
  }

  function emptySlot() {
    const node = element("span", "card slot");
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  /** "two_pair" → "Two pair". */
  function label(slug) {
    if (!slug) return "";
    const text = slug.replace(/_/g, " ");
    return t(text.charAt(0).toUpperCase() + text.slice(1));
  }

  const PHASES = { waiting: "Waiting", betting: "Betting", pre_flop: "Pre-flop", flop: "Flop", turn: "Turn",
                   showdown: "Showdown", settled: "Settled", void: "Void" };
  const phaseName = (slug) => (PHASES[slug] ? t(PHASES[slug]) : label(slug));

  /** Seconds until an ISO deadline on the server's clock, given the server's time when sent. A
   * betting window nobody has bet in opens again every ``repeatsEvery`` seconds (R2.1) without the
   * server sending anything, so the countdown rolls over to the next window by itself. */
  function secondsLeft(deadline, serverTime, receivedAt, repeatsEvery) {
    if (!deadline) return null;
    const elapsed = (performance.now() - receivedAt) / 1000;
    const left = (Date.parse(deadline) - Date.parse(serverTime)) / 1000 - elapsed;
    if (left > 0 || !repeatsEvery) return Math.max(0, left);
    const into = -left % repeatsEvery;
    return into === 0 ? 0 : repeatsEvery - into;
  }

  /** Follow an event stream: onState(payload) per update, onLink(up) when the link drops or returns.
   * EventSource reconnects by itself; a stream refused for good (logged out) goes to the login page. */
  function follow(url, onState, onLink) {
    let source = null;
    let downTimer = null;
    const open = () => {
      source = new EventSource(url);
      source.addEventListener("state", (event) => onState(JSON.parse(event.data), performance.now()));
      source.onopen = () => { clearTimeout(downTimer); downTimer = null; onLink(true); };
      source.onerror = () => {
        if (!downTimer) downTimer = setTimeout(() => onLink(false), 2000);
        if (source.readyState === EventSource.CLOSED) {
          fetch("/api/session", { credentials: "same-origin" }).then((r) => r.json()).then((session) => {
            if (!session.authenticated) window.location.assign("/login?next=" + encodeURIComponent(location.pathname));
            else setTimeout(open, 2000);
          }).catch(() => setTimeout(open, 2000));
        }
      };
    };
    open();
    window.addEventListener("pagehide", () => source && source.close());
  }

  function showLink(node, up) {
    node.textContent = up ? `● ${t("live")}` : t("Reconnecting…");
    node.classList.toggle("down", !up);
  }

  /** The language menu in the header applies as soon as a language is chosen. */
  document.addEventListener("change", (event) => {
    if (event.target.id === "language") event.target.form.requestSubmit();
  });

  return { ready, t, handName, api, toUnits, fromUnits, money, when, card, faceDown, emptySlot, element, label, phaseName, secondsLeft, follow,
           showLink };
})();
