"""The web API's error: answered as JSON ``{"error": message, **extra}`` with an HTTP status."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answered as JSON: ``{"error": message, **extra}`` with ``status``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra
