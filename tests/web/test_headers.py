"""Security headers (issue 10): every response refuses framing, sniffing and inline script; nothing
carrying a player's data may be cached; and no template carries inline script for the CSP to block."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from casino_holdem.web.headers import CONTENT_SECURITY_POLICY
from support.web import WebCasino

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: an inline handler (onclick=…), a style attribute, a javascript: URL, or a <script> that is not data
INLINE = re.compile(r"""\son[a-z]+\s*=|\sstyle\s*=|javascript:"""
                    r"""|<script(?![^>]*\bsrc=)(?![^>]*type="application/json")""", re.IGNORECASE)


def _directives(policy: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def test_the_policy_allows_no_inline_script_or_style_and_no_framing() -> None:
    directives = _directives(CONTENT_SECURITY_POLICY)
    assert directives["script-src"] == directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("template", sorted(TEMPLATES.glob("**/*.html")), ids=lambda path: path.name)
def test_no_template_has_inline_script_handlers_or_styles(template: Path) -> None:
    assert INLINE.findall(template.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("snippet", ['<button onclick="go()">', '<p style="color: red">', "<script>go()</script>",
                                     '<a href="javascript:go()">', '<script type="module">go()</script>'])
def test_the_template_scan_finds_inline_script(snippet: str) -> None:
    assert INLINE.search(snippet)


@pytest.mark.parametrize("snippet", ['<script src="/static/table.js" defer></script>',
                                     '<script type="application/json" id="state">{}</script>'])
def test_the_template_scan_lets_script_files_and_json_data_through(snippet: str) -> None:
    assert not INLINE.search(snippet)


PLAYER_PATHS = ["/", "/history", "/history/1", "/tables/1", "/api/me", "/api/tables", "/api/history",
                "/api/session", "/api/tables/1", "/api/rounds/99", "/login", "/api/nothing-here"]


@pytest.mark.parametrize("path", PLAYER_PATHS)
def test_every_response_carries_the_security_headers_and_no_store(casino: WebCasino, path: str) -> None:
    casino.player("alice")
    casino.table()
    response = casino.client("alice").get(path)
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response.headers["Cache-Control"] == "no-store"
    assert "Strict-Transport-Security" not in response.headers  # tests serve plain http


def test_refusals_carry_the_headers_too(casino: WebCasino) -> None:
    response = casino.client().http.post("/api/session", json={})
    assert response.status_code == 403
    assert response.headers["X-Frame-Options"] == "DENY" and response.headers["Cache-Control"] == "no-store"


def test_static_files_may_be_cached_but_keep_the_policy(casino: WebCasino) -> None:
    response = casino.client().get("/static/common.js")
    assert response.status_code == 200
    assert "no-store" not in response.headers.get("Cache-Control", "")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    response.close()


def test_hsts_is_sent_when_cookies_are_secure(app: Flask, db) -> None:
    app.config["SESSION_COOKIE_SECURE"] = True
    try:
        response = app.test_client().get("/api/session")
    finally:
        app.config["SESSION_COOKIE_SECURE"] = False
    assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")
