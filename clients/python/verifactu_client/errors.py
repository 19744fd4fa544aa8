"""The service's refusals (RFC 9457 problems) as exceptions, one class per family of status."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class FieldError:
    """One field's problem in a 422: the field's path, a stable code, a message, and the authority's code if any."""

    field: str
    code: str
    message: str
    authority_code: int | None = None


class VerifactuError(Exception):
    """A problem the service answered: branch on ``code``, which is stable; ``errors`` lists a 422's field errors."""

    def __init__(self, problem: Mapping[str, Any]) -> None:
        self.problem: dict[str, Any] = dict(problem)
        self.status: int = int(problem.get("status", 0))
        self.code: str = str(problem.get("code", ""))
        self.detail: str = str(problem.get("detail", ""))
        self.request_id: str | None = problem.get("request_id") or None
        self.errors: list[FieldError] = [
            FieldError(
                field=str(e.get("field", "")),
                code=str(e.get("code", "")),
                message=str(e.get("message", "")),
                authority_code=e.get("authority_code"),
            )
            for e in problem.get("errors") or []
            if isinstance(e, Mapping)
        ]
        super().__init__(f"{self.status} {self.code}: {self.detail}")


class InvalidRequestError(VerifactuError):
    """400, 405, 406, 413, 415 and any other 4xx of its own: the request cannot be read as sent."""


class AuthenticationError(VerifactuError):
    """401: the API key is missing, wrong or revoked."""


class NotFoundError(VerifactuError):
    """404: no such resource in this account."""


class ConflictError(VerifactuError):
    """409: the request clashes with the current state (a duplicate invoice, a key reused with another body)."""


class ValidationError(VerifactuError):
    """422: the content breaks a rule; ``errors`` says which fields and why."""


class RateLimitError(VerifactuError):
    """429: too many requests or the monthly quota spent (after the client's own retries)."""


class ServerError(VerifactuError):
    """5xx: the service failed or is unavailable (after the client's own retries)."""


_FAMILIES: dict[int, type[VerifactuError]] = {
    401: AuthenticationError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def error_from_response(status: int, headers: Mapping[str, str], body: bytes) -> VerifactuError:
    """The problem of a failed answer; one that is not a problem (a proxy's page) gets the code ``http_<status>``."""
    try:
        problem = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        problem = None
    if not isinstance(problem, dict) or not isinstance(problem.get("code"), str):
        problem = {
            "type": "about:blank",
            "status": status,
            "detail": body.decode("utf-8", "replace")[:500],
            "code": f"http_{status}",
            "request_id": headers.get("x-request-id") or "",
        }
    family = _FAMILIES.get(status) or (ServerError if status >= 500 else InvalidRequestError)
    return family(problem)
