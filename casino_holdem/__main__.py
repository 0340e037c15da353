"""``python -m casino_holdem`` is the ``casino-holdem`` command."""

from .cli import main

main()
