"""Helpers every test suite shares (``tests/`` is on the import path: ``from support.casino import …``).

- :mod:`.app` the Flask app on SQLite or PostgreSQL, migrated once per session
- :mod:`.casino` players, pools and tables made through the services; rigged decks; a fixed clock
- :mod:`.web` logged-in test clients that send the CSRF token, and the casino they play in
- :mod:`.server` a real ``casino-holdem serve`` process on a free port, waited for by condition
"""
