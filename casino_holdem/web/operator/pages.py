"""The back office's pages (``/operator/…``): a page per duty, forms that post back to it, each
refusal shown next to the field it names (the status is the service's). No inline script: the
pages are plain HTML forms (the CSP forbids inline script)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from ...core.rules import Stage, VoidReason
from ...services import history, paytable_versions, pool_admin, reports, tables, voids
from ...services.audit_log import search
from ...services.errors import ServiceError
from ...services.jackpot import list_pools
from ...services.operators import Role
from ..operator_auth import operator_required
from ..security import current_operator
from .api import audit_filter
from .inputs import day, me, new_table, table_settings, whole

bp = Blueprint("operator_pages", __name__, url_prefix="/operator")
PIT, MANAGER, AUDITOR = Role.PIT, Role.MANAGER, Role.AUDITOR
Page = str | tuple[str, int] | Response


def _attempt(action: Callable[[], Any], done: str) -> tuple[dict[str, str], int, str | None]:
    """Run a form's service call: (errors by field, status, message on success)."""
    try:
        action()
    except paytable_versions.PaytableRejected as error:
        return error.problems, error.status, None
    except ServiceError as error:
        return {error.field or "form": error.message}, error.status, None
    return {}, 200, done


def _render(template: str, errors: dict[str, str], status: int, done: str | None, **context: Any) -> Page:
    return render_template(f"operator/{template}", errors=errors, done=done, form=request.form,
                           operator=current_operator(), **context), status


# --- paytables ----------------------------------------------------------------------------------

def _paytables(errors: dict[str, str], status: int = 200, done: str | None = None) -> Page:
    return _render("paytables.html", errors, status, done, versions=paytable_versions.list_versions(),
                   tables=tables.list_tables())


@bp.get("/paytables")
@operator_required(MANAGER, AUDITOR)
def paytables() -> Page:
    return _paytables({})


@bp.post("/paytables")
@operator_required(MANAGER)
def paytables_change() -> Page:
    """Upload a draft, approve one (four-eyes), or assign an approved version to a table."""
    form, step = request.form, request.form.get("step")
    if step == "approve":
        return _paytables(*_attempt(
            lambda: paytable_versions.approve(whole(form.get("version_id"), "version_id"), me()), "Approved."))
    if step == "assign":
        return _paytables(*_attempt(lambda: paytable_versions.assign(
            whole(form.get("table_id"), "table_id"), whole(form.get("version_id"), "version_id"), me(),
            form.get("reason", "")), "Assigned: it takes effect from the table's next round."))
    upload = request.files.get("file")
    content = upload.read() if upload and upload.filename else form.get("content", "").encode("utf-8")
    return _paytables(*_attempt(lambda: paytable_versions.submit(content, me()), "Draft stored."))


@bp.get("/paytables/<int:version_id>")
@operator_required(MANAGER, AUDITOR)
def paytable_detail(version_id: int) -> Page:
    """One version with every exact return figure, or "computing…" until they are stored."""
    return _render("paytable.html", {}, 200, None, version=paytable_versions.version_of(version_id))


@bp.get("/paytables/<int:left_id>/compare/<int:right_id>")
@operator_required(MANAGER, AUDITOR)
def paytable_compare(left_id: int, right_id: int) -> Page:
    return _render("compare.html", {}, 200, None, side=paytable_versions.compare(left_id, right_id))


# --- tables and voids ---------------------------------------------------------------------------

def _tables(errors: dict[str, str], status: int = 200, done: str | None = None) -> Page:
    rows = tables.list_tables()
    return _render("tables.html", errors, status, done, tables=rows,
                   changes={row.id: tables.pending_changes(row.id) for row in rows})


@bp.get("/tables")
@operator_required(PIT, MANAGER, AUDITOR)
def table_list() -> Page:
    return _tables({})


@bp.post("/tables")
@operator_required(MANAGER)
def table_create() -> Page:
    """A new open table on the standard paytable (a manager then assigns it an approved version)."""
    def create() -> None:
        name, pool, settings = new_table(request.form)
        tables.create_table(name, pool, by=me(), **settings)  # type: ignore[arg-type]

    return _tables(*_attempt(create, "Table created: it opens its first round now."))


@bp.post("/tables/<int:table_id>/state")
@operator_required(PIT, MANAGER)
def table_state(table_id: int) -> Page:
    """Open a table, or close it (the round in play finishes first)."""
    opening = request.form.get("step") == "open"
    return _tables(*_attempt(lambda: tables.set_table_open(table_id, opening, me()),
                             f"Table {table_id} {'opened' if opening else 'closes after the round in play'}."))


@bp.post("/tables/<int:table_id>/suspend")
@operator_required(PIT, MANAGER)
def table_suspend(table_id: int) -> Page:
    """Suspend a table: no bet and no new round until resumed; the round in play finishes."""
    return _tables(*_attempt(lambda: tables.suspend_table(table_id, request.form.get("reason", ""), me()),
                             f"Table {table_id} suspended: the round in play finishes, no new round opens."))


@bp.post("/tables/<int:table_id>/resume")
@operator_required(PIT, MANAGER)
def table_resume(table_id: int) -> Page:
    return _tables(*_attempt(lambda: tables.resume_table(table_id, request.form.get("reason", ""), me()),
                             f"Table {table_id} resumed."))


@bp.post("/tables/<int:table_id>/settings")
@operator_required(MANAGER)
def table_settings_change(table_id: int) -> Page:
    form = request.form
    # now named (its default), so the type checker does not take a setting for it
    return _tables(*_attempt(lambda: tables.edit_table(table_id, me(), form.get("reason", ""), now=None,
                                                       **table_settings(form)),
                             "Saved: the new settings take effect from the table's next round."))


@bp.route("/void", methods=["GET", "POST"])
@operator_required(PIT)
def void() -> Page:
    errors: dict[str, str] = {}
    status, done = 200, None
    if request.method == "POST":
        form = request.form
        errors, status, done = _attempt(lambda: voids.void_round(
            whole(form.get("round_id"), "round_id"), form.get("reason", ""), form.get("stage") or None,
            by=me()), "Round void: stakes refunded, contributions reversed (R9).")
    return _render("void.html", errors, status, done, reasons=list(VoidReason), stages=list(Stage))


# --- jackpot pools ------------------------------------------------------------------------------

def _pools(errors: dict[str, str], status: int = 200, done: str | None = None) -> Page:
    return _render("pools.html", errors, status, done, pools=list_pools(), corrections=pool_admin.corrections())


@bp.get("/pools")
@operator_required(MANAGER, AUDITOR)
def pools() -> Page:
    return _pools({})


@bp.post("/pools")
@operator_required(MANAGER)
def pools_change() -> Page:
    """Request a correction (R9), or approve or reject one as a second manager (four-eyes)."""
    form, step = request.form, request.form.get("step")
    if step in ("approve", "reject"):
        correction = whole(form.get("correction_id"), "correction_id")
        if step == "approve":
            return _pools(*_attempt(lambda: pool_admin.approve_correction(correction, me()),
                                    f"Correction {correction} approved."))
        return _pools(*_attempt(lambda: pool_admin.reject_correction(correction, me(), form.get("reason", "")),
                                f"Correction {correction} rejected."))
    return _pools(*_attempt(lambda: pool_admin.request_correction(
        whole(form.get("pool_id"), "pool_id"), form.get("amount", ""), form.get("reason", ""), me()),
        "Correction requested: a second manager approves it."))


@bp.get("/pools/<int:pool_id>")
@operator_required(MANAGER, AUDITOR)
def pool(pool_id: int) -> Page:
    return _render("pool.html", {}, 200, None, check=pool_admin.reconcile(pool_id),
                   movements=pool_admin.history(pool_id))


# --- reports, audit log, recall -----------------------------------------------------------------

@bp.get("/reports")
@operator_required(MANAGER, AUDITOR)
def report() -> Page:
    if not request.args.get("from"):
        return _render("reports.html", {}, 200, None, result=None)
    try:
        start, _ = reports.day_bounds(day(request.args.get("from"), "from"))
        _, end = reports.day_bounds(day(request.args.get("to"), "to"))
        table = request.args.get("table")
        result = reports.report(start, end, whole(table, "table") if table else None)
    except ServiceError as error:
        return _render("reports.html", {error.field or "form": error.message}, error.status, None, result=None)
    return _render("reports.html", {}, 200, None, result=result)


@bp.get("/audit")
@operator_required(AUDITOR, MANAGER)
def audit() -> Page:
    try:
        entries = search(audit_filter())
    except ServiceError as error:
        return _render("audit.html", {error.field or "form": error.message}, error.status, None, entries=[])
    return _render("audit.html", {}, 200, None, entries=entries)


@bp.get("/recall")
@operator_required(AUDITOR)
def recall() -> Page:
    args = request.args
    if not args.get("player_id"):
        return _render("recall.html", {}, 200, None, r=None, page=None)
    try:
        player = whole(args.get("player_id"), "player_id")
        if args.get("round_id"):
            return _render("recall.html", {}, 200, None, r=history.recall(player, whole(args["round_id"], "round_id")),
                           page=None)
        return _render("recall.html", {}, 200, None, r=None, page=history.rounds_of(player))
    except ServiceError as error:
        return _render("recall.html", {error.field or "form": error.message}, error.status, None, r=None, page=None)

