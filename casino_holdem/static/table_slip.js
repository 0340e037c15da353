/* The bet slip of the table page: the chips a player has put on the Ante, Bonus and Progressive
 * spots before placing them (R2.1), with Undo, Clear, Rebet and Double. Amounts are BigInt counts
 * of the currency's smallest digit; nothing here talks to the server. */
"use strict";

class TableSlip {
  constructor() {
    this.ante = 0n;
    this.bonus = 0n;
    this.progressive = false;
    this.past = [];
  }

  snapshot() {
    return { ante: this.ante, bonus: this.bonus, progressive: this.progressive };
  }

  remember() {
    this.past.push(this.snapshot());
  }

  restore(saved) {
    this.ante = saved.ante;
    this.bonus = saved.bonus;
    this.progressive = saved.progressive;
  }

  /** R2.1: a chip on the Bonus spot, or the Progressive, only with an Ante. */
  add(spot, units) {
    if (spot !== "ante" && this.ante === 0n) return false;
    this.remember();
    this[spot] += units;
    return true;
  }

  toggleProgressive() {
    if (this.ante === 0n && !this.progressive) return false;
    this.remember();
    this.progressive = !this.progressive;
    return true;
  }

  undo() {
    const saved = this.past.pop();
    if (saved) this.restore(saved);
    return Boolean(saved);
  }

  clear() {
    if (this.isEmpty()) return;
    this.remember();
    this.restore({ ante: 0n, bonus: 0n, progressive: false });
  }

  /** The bets of the player's last round, in place of whatever is on the spots. */
  rebet(last) {
    this.remember();
    this.restore(last);
  }

  /** Ante and Bonus twice over; the Progressive is a fixed amount (R6) and stays as it is. */
  double() {
    if (this.ante === 0n) return false;
    this.remember();
    this.ante *= 2n;
    this.bonus *= 2n;
    return true;
  }

  isEmpty() {
    return this.ante === 0n && this.bonus === 0n && !this.progressive;
  }
}
