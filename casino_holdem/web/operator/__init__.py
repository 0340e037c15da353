"""The operator's back office on the web: pages under ``/operator/`` and the JSON API under
``/api/operator/`` (described in the same OpenAPI document as the players' API, see
:mod:`.openapi_paths`). Every view is guarded by
:func:`~casino_holdem.web.operator_auth.operator_required` with the roles whose duties it serves:
*pit* runs tables and voids, *manager* paytables, table settings and pools, *auditor* reads
reports, the audit log and game recall.
"""

from __future__ import annotations

from flask import Flask

from . import api, pages


def init_operator(app: Flask) -> None:
    for blueprint in (api.bp, pages.bp):
        app.register_blueprint(blueprint)
