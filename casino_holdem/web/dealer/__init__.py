"""The dealer's side of live dealing (issue 12, R1, R9): the console page under
``/operator/dealer/`` and the JSON API under ``/api/dealer/`` it runs on, which a studio's own
card-recognition system can call instead of a person. Both are for the ``dealer`` and ``pit``
roles; only *pit* may call the house's own voids (:func:`~casino_holdem.core.incidents.needs_house`).
"""

from __future__ import annotations

from flask import Flask

from . import api, pages


def init_dealer(app: Flask) -> None:
    for blueprint in (api.bp, pages.bp):
        app.register_blueprint(blueprint)
