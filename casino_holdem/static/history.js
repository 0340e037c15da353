/* Game recall: check a round's revealed deck and nonce against the commitment published before
 * the deal, sha256(nonce + ":" + deck), with the browser's own SHA-256 (R1). */
"use strict";

(() => {
  const { t } = Casino;

  async function sha256Hex(text) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.verify");
    if (!button) return;
    const round = button.closest("[data-round]");
    const result = button.parentElement.querySelector(".verify-result");
    const read = (name) => round.querySelector(`code.${name}`).textContent.trim();
    if (!window.crypto || !crypto.subtle) {
      result.textContent = t("This browser cannot hash here (it needs HTTPS); use the command above.");
      return;
    }
    const hash = await sha256Hex(`${read("nonce")}:${read("deck")}`);
    const ok = hash === read("commitment");
    result.className = `verify-result ${ok ? "ok" : "bad"}`;
    result.textContent = ok ? `✓ sha256 = ${hash.slice(0, 16)}… ${t("matches the commitment")}`
                            : `✗ sha256 = ${hash} ${t("does not match the commitment")}`;
  });
})();
