"""Standard Webhooks signatures (https://www.standardwebhooks.com), as the service signs its deliveries."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The delivery is not the service's: a signature that does not match, or a timestamp too far from now."""


def _secret_key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except binascii.Error as error:
        raise ValueError("the webhook secret is not a whsec_ secret") from error


def sign_webhook(secret: str, message_id: str, timestamp: int, raw_body: bytes | str) -> str:
    """The ``webhook-signature`` value (``v1,<base64>``) of a delivery: what the service sends, for tests of yours."""
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    signed = f"{message_id}.{timestamp}.".encode("utf-8") + body
    return "v1," + base64.b64encode(hmac.new(_secret_key(secret), signed, hashlib.sha256).digest()).decode("ascii")


def verify_webhook(
    secret: str, raw_body: bytes | str, headers: Mapping[str, str], *, now: float | None = None
) -> dict[str, Any]:
    """Checks a delivery's signature and timestamp (within 5 minutes) on the raw body exactly as received.

    Returns the event (``type``, ``timestamp``, ``data``); raises WebhookVerificationError when either does not hold.
    ``secret`` is the ``whsec_…`` of the webhook's creation answer; header names are matched in any case.
    """
    lower = {name.lower(): value for name, value in headers.items()}
    message_id = lower.get("webhook-id")
    timestamp = lower.get("webhook-timestamp")
    signatures = lower.get("webhook-signature")
    if not message_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        sent_at = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("the webhook-timestamp header is not a number") from error
    if abs((time.time() if now is None else now) - sent_at) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("the webhook-timestamp is more than 5 minutes from now")
    expected = sign_webhook(secret, message_id, sent_at, raw_body).encode("ascii")
    # Several signatures, space-separated, while a secret is being rotated: one matching is enough.
    if not any(hmac.compare_digest(expected, candidate.encode("utf-8")) for candidate in signatures.split()):
        raise WebhookVerificationError("no signature matches")
    event = json.loads(raw_body)
    if not isinstance(event, dict):
        raise WebhookVerificationError("the body is not an event")
    return event
