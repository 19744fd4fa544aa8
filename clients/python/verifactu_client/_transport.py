"""HTTP with retries as the service asks: one Idempotency-Key per write, reused by every retry of it."""

from __future__ import annotations

import http.client
import random
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from email.message import Message
from email.utils import parsedate_to_datetime
from typing import Callable, Mapping

RETRYABLE = frozenset({429, 503})
WRITES = frozenset({"POST", "PUT", "PATCH"})


@dataclass(frozen=True)
class RetryPolicy:
    """Retries after the first attempt; the first backoff (doubled each retry, full jitter); the longest wait made.

    A ``Retry-After`` beyond ``max_delay`` (a spent monthly quota) is not waited for: the answer is returned.
    """

    retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 30.0


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Message
    body: bytes


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        date = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, date.timestamp() - (time.time() if now is None else now))


class Transport:
    """Sends requests with urllib; retries 429, 503 and network errors, never another 4xx."""

    def __init__(
        self,
        policy: RetryPolicy,
        timeout: float,
        sleep: Callable[[float], None] = time.sleep,
        opener: urllib.request.OpenerDirector | None = None,
    ) -> None:
        self.policy = policy
        self.timeout = timeout
        self._sleep = sleep
        self._opener = opener or urllib.request.build_opener()

    def send(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None = None) -> Answer:
        sent = dict(headers)
        if method in WRITES and not any(name.lower() == "idempotency-key" for name in sent):
            sent["Idempotency-Key"] = str(uuid.uuid4())
        attempt = 0
        while True:
            last = attempt >= self.policy.retries
            try:
                answer = self._once(method, url, sent, body)
            except (OSError, http.client.HTTPException):
                # urllib's URLError, refused or reset connections, timeouts, an answer cut short.
                if last:
                    raise
                self._sleep(self._backoff(attempt))
                attempt += 1
                continue
            if last or answer.status not in RETRYABLE:
                return answer
            asked = retry_after_seconds(answer.headers.get("Retry-After"))
            if asked is not None and asked > self.policy.max_delay:
                return answer
            self._sleep(self._backoff(attempt) if asked is None else asked + random.random() * self.policy.base_delay)
            attempt += 1

    def _backoff(self, attempt: int) -> float:
        return random.random() * min(self.policy.max_delay, self.policy.base_delay * 2**attempt)

    def _once(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Answer:
        request = urllib.request.Request(url, data=body, headers=dict(headers), method=method)
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, error.headers, error.read())
