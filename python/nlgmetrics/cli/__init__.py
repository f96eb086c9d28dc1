"""The ``nlgmetrics`` command."""

from nlgmetrics.cli.commands import main

__all__ = ["main"]
