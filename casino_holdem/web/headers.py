"""Security headers on every response (issue 10's security fixes).

- A Content-Security-Policy that allows scripts, styles and connections only from this site: no
  inline script, handler or ``style=`` attribute runs (the templates have none; the JSON state a
  page embeds is ``<script type="application/json">``, data a browser never executes). Framing is
  refused twice: ``frame-ancestors 'none'`` and, for older browsers, ``X-Frame-Options: DENY``.
- ``X-Content-Type-Options: nosniff`` and a Referrer-Policy that sends only the origin elsewhere.
- HSTS when the session cookie is ``Secure`` (the site is then served over https only).
- ``Cache-Control: no-store`` on everything but the static files: pages and API answers carry a
  player's balance, bets, history or CSRF token, and no shared or browser cache may keep them. The
  event streams carry the viewer's bets and balance too, so they say ``no-store`` as well, on the
  development server and on the production fan-out alike (:data:`..events.wire.HEADERS`).

A handful of fixed headers: written here rather than with a library (flask-talisman also
redirects to https and rewrites cookie settings, which the TLS proxy and :mod:`.security` own).
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
    "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
))
ALWAYS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}
HSTS = "max-age=31536000; includeSubDomains"


def add_headers(response: Response) -> Response:
    """The security headers of :data:`ALWAYS`, HSTS over secure cookies, no-store off the static files."""
    response.headers.update(ALWAYS)
    if current_app.config.get("SESSION_COOKIE_SECURE"):
        response.headers["Strict-Transport-Security"] = HSTS
    if request.endpoint != "static":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def register(app: Flask) -> None:
    app.after_request(add_headers)
