"""Game recall: a player's finished rounds, newest first, each as :func:`.viewing.round_seen_by`
shows it to that player: cards, board, decisions (R8 automatic ones with their reason), every
bet and what it returned, the jackpot awards with ``share_of`` (R5), the paytable id, version and
SHA-256, and the deck commitment with the revealed deck and nonce (R1) so the player can check
``sha256(nonce + ":" + deck) == commitment``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from ..core.round import FINISHED
from ..extensions import db
from ..models import Bet, GameRound
from .errors import BadRequest, NotFound
from .queries import WITH_BETS
from .transaction import reading
from .viewing import round_seen_by

PER_PAGE = 10


@reading
def rounds_of(player_id: int, page: int = 1, per_page: int = PER_PAGE) -> dict[str, Any]:
    """One page of the player's settled and void rounds; only rounds they bet on."""
    if page < 1:
        raise BadRequest(f"page: {page} must be 1 or more", "page")
    mine = (select(GameRound).join(Bet).where(Bet.player_id == player_id, GameRound.phase.in_(FINISHED))
            .options(WITH_BETS))
    total = db.session.scalar(select(func.count()).select_from(mine.subquery())) or 0
    rows = db.session.scalars(mine.order_by(GameRound.id.desc()).offset((page - 1) * per_page).limit(per_page))
    return {"page": page, "per_page": per_page, "total": total, "pages": max(1, -(-total // per_page)),
            "rounds": [round_seen_by(row, player_id) for row in rows]}


@reading
def recall(player_id: int, round_id: int) -> dict[str, Any]:
    """One of the player's rounds; another player's round is not found (it is not theirs to read)."""
    round_row = db.session.scalars(select(GameRound).join(Bet).where(GameRound.id == round_id,
                                                                      Bet.player_id == player_id)).first()
    if round_row is None:
        raise NotFound(f"round: you have no round {round_id}", "round")
    return round_seen_by(round_row, player_id)
