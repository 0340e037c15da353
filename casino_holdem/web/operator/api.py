"""The back office's JSON API (``/api/operator/``): each view reads its input, calls one service
as the signed-in operator and returns the result; refusals have the players' API error shape."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from ...serialize import jsonable
from ...services import history, paytable_versions, pool_admin, reports, tables, voids
from ...services.audit_log import AuditFilter, search, to_csv, to_json
from ...services.jackpot import list_pools
from ...services.operators import Role
from ..operator_auth import operator_required
from .inputs import body, day, instant, me, new_table, table_settings, text, whole

bp = Blueprint("operator_api", __name__, url_prefix="/api/operator")
PIT, MANAGER, AUDITOR = Role.PIT, Role.MANAGER, Role.AUDITOR


def _json(value: Any, status: int = 200) -> tuple[Response, int]:
    return jsonify(jsonable(value)), status


def _rejected(error: paytable_versions.PaytableRejected) -> tuple[Response, int]:
    """A paytable's problems, each under its key, beside the usual error."""
    return jsonify(error={"code": "unprocessable", "message": error.message, "field": error.field,
                          "problems": error.problems}), 422


# --- paytables ----------------------------------------------------------------------------------

@bp.get("/paytables")
@operator_required(MANAGER, AUDITOR)
def paytable_list() -> tuple[Response, int]:
    return _json({"versions": paytable_versions.list_versions()})


@bp.post("/paytables")
@operator_required(MANAGER)
def paytable_submit() -> tuple[Response, int]:
    content = text(body(), "content", limit=100_000)
    try:
        return _json(paytable_versions.submit(content.encode("utf-8"), me()), 201)
    except paytable_versions.PaytableRejected as error:
        return _rejected(error)


@bp.post("/paytables/<int:version_id>/approve")
@operator_required(MANAGER)
def paytable_approve(version_id: int) -> tuple[Response, int]:
    return _json(paytable_versions.approve(version_id, me()))


@bp.post("/paytables/<int:version_id>/retire")
@operator_required(MANAGER)
def paytable_retire(version_id: int) -> tuple[Response, int]:
    return _json(paytable_versions.retire(version_id, me(), text(body(), "reason")))


@bp.get("/paytables/<int:version_id>")
@operator_required(MANAGER, AUDITOR)
def paytable_detail(version_id: int) -> tuple[Response, int]:
    return _json(paytable_versions.version_of(version_id))


@bp.get("/paytables/<int:left_id>/compare/<int:right_id>")
@operator_required(MANAGER, AUDITOR)
def paytable_compare(left_id: int, right_id: int) -> tuple[Response, int]:
    return _json(paytable_versions.compare(left_id, right_id))


# --- tables -------------------------------------------------------------------------------------

@bp.get("/tables")
@operator_required(PIT, MANAGER, AUDITOR)
def table_list() -> tuple[Response, int]:
    return _json({"tables": tables.list_tables()})


@bp.post("/tables")
@operator_required(MANAGER)
def table_create() -> tuple[Response, int]:
    """A new open table on the standard paytable; a version is assigned afterwards."""
    name, pool, settings = new_table(body())
    return _json(tables.create_table(name, pool, by=me(), **settings), 201)  # type: ignore[arg-type]


@bp.get("/tables/<int:table_id>/changes")
@operator_required(PIT, MANAGER, AUDITOR)
def table_changes(table_id: int) -> tuple[Response, int]:
    return _json({"changes": tables.pending_changes(table_id)})


@bp.post("/tables/<int:table_id>/settings")
@operator_required(MANAGER)
def table_edit(table_id: int) -> tuple[Response, int]:
    data = body()
    # now named (its default), so the type checker does not take a setting for it
    return _json(tables.edit_table(table_id, me(), text(data, "reason"), now=None, **table_settings(data)))


@bp.post("/tables/<int:table_id>/paytable")
@operator_required(MANAGER)
def table_paytable(table_id: int) -> tuple[Response, int]:
    data = body()
    change = paytable_versions.assign(table_id, whole(data.get("version_id"), "version_id"), me(),
                                      text(data, "reason"))
    return _json({"table_id": table_id, "settings": change.settings, "not_before": change.not_before}, 202)


@bp.post("/tables/<int:table_id>/open")
@operator_required(PIT, MANAGER)
def table_open(table_id: int) -> tuple[Response, int]:
    return _json(tables.set_table_open(table_id, True, me()))


@bp.post("/tables/<int:table_id>/close")
@operator_required(PIT, MANAGER)
def table_close(table_id: int) -> tuple[Response, int]:
    return _json(tables.set_table_open(table_id, False, me()))


@bp.post("/tables/<int:table_id>/suspend")
@operator_required(PIT, MANAGER)
def table_suspend(table_id: int) -> tuple[Response, int]:
    return _json(tables.suspend_table(table_id, text(body(), "reason", limit=200), me()))


@bp.post("/tables/<int:table_id>/resume")
@operator_required(PIT, MANAGER)
def table_resume(table_id: int) -> tuple[Response, int]:
    return _json(tables.resume_table(table_id, text(body(), "reason", required=False), me()))


# --- R9: voids ----------------------------------------------------------------------------------

@bp.post("/rounds/<int:round_id>/void")
@operator_required(PIT)
def round_void(round_id: int) -> tuple[Response, int]:
    data = body()
    stage = text(data, "stage", limit=16, required=False) or None
    return _json(voids.void_round(round_id, text(data, "reason", limit=40), stage, by=me()))


# --- jackpot pools ------------------------------------------------------------------------------

@bp.get("/pools")
@operator_required(PIT, MANAGER, AUDITOR)
def pool_list() -> tuple[Response, int]:
    return _json({"pools": list_pools()})


@bp.get("/pools/<int:pool_id>/history")
@operator_required(MANAGER, AUDITOR)
def pool_history(pool_id: int) -> tuple[Response, int]:
    return _json({"movements": pool_admin.history(pool_id)})


@bp.get("/pools/<int:pool_id>/reconciliation")
@operator_required(MANAGER, AUDITOR)
def pool_reconciliation(pool_id: int) -> tuple[Response, int]:
    check = pool_admin.reconcile(pool_id)
    return _json({**jsonable(check), "sound": check.sound})


@bp.get("/pools/<int:pool_id>/corrections")
@operator_required(MANAGER, AUDITOR)
def pool_corrections(pool_id: int) -> tuple[Response, int]:
    return _json({"corrections": pool_admin.corrections(pool_id)})


@bp.post("/pools/<int:pool_id>/corrections")
@operator_required(MANAGER)
def pool_request_correction(pool_id: int) -> tuple[Response, int]:
    data = body()
    return _json(pool_admin.request_correction(pool_id, text(data, "amount", limit=40), text(data, "reason"),
                                               me()), 201)


@bp.post("/corrections/<int:correction_id>/approve")
@operator_required(MANAGER)
def correction_approve(correction_id: int) -> tuple[Response, int]:
    return _json(pool_admin.approve_correction(correction_id, me()))


@bp.post("/corrections/<int:correction_id>/reject")
@operator_required(MANAGER)
def correction_reject(correction_id: int) -> tuple[Response, int]:
    return _json(pool_admin.reject_correction(correction_id, me(), text(body(), "reason")))


# --- reports, the audit log, game recall --------------------------------------------------------

def _period() -> tuple[Any, Any, int | None]:
    start, _ = reports.day_bounds(day(request.args.get("from"), "from"))
    _, end = reports.day_bounds(day(request.args.get("to"), "to"))
    table = request.args.get("table")
    return start, end, whole(table, "table") if table else None


@bp.get("/reports")
@operator_required(MANAGER, AUDITOR)
def report() -> Response | tuple[Response, int]:
    result = reports.report(*_period())
    if request.args.get("format") == "csv":
        return Response(reports.to_csv([result]), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=report.csv"})
    return _json({**jsonable(result), "ledger_agrees": result.ledger_agrees})


def audit_filter() -> AuditFilter:
    """The audit-log criteria from the query string (shared with the page)."""
    args = request.args
    number = {name: whole(args[name], name) if args.get(name) else None
              for name in ("table_id", "round_id", "player_id")}
    return AuditFilter(actor=args.get("actor") or None, action=args.get("action") or None, **number,
                       since=instant(args.get("since"), "since"), until=instant(args.get("until"), "until"),
                       limit=whole(args.get("limit", "200"), "limit"))


@bp.get("/audit")
@operator_required(AUDITOR, MANAGER)
def audit_log() -> Response | tuple[Response, int]:
    entries = search(audit_filter())
    if request.args.get("format") == "csv":
        return Response(to_csv(entries), mimetype="text/csv",
                        headers={"Content-Disposition": "attachment; filename=audit.csv"})
    if request.args.get("format") == "json":
        return Response(to_json(entries), mimetype="application/json",
                        headers={"Content-Disposition": "attachment; filename=audit.json"})
    return _json({"entries": entries})


@bp.get("/players/<int:player_id>/rounds")
@operator_required(AUDITOR)
def player_rounds(player_id: int) -> tuple[Response, int]:
    return _json(history.rounds_of(player_id, whole(request.args.get("page", "1"), "page")))


@bp.get("/players/<int:player_id>/rounds/<int:round_id>")
@operator_required(AUDITOR)
def player_round(player_id: int, round_id: int) -> tuple[Response, int]:
    """Game recall: the round exactly as the player's own history shows it."""
    return _json(history.recall(player_id, round_id))
