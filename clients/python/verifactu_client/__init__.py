"""Python client for the VERI*FACTU registration API: ``VerifactuClient(base_url, api_key)``."""

from ._generated import *  # noqa: F401,F403 (the schemas' TypedDicts)
from ._transport import RetryPolicy, retry_after_seconds
from .client import VerifactuClient, is_final
from .errors import (
    AuthenticationError,
    ConflictError,
    FieldError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    ServerError,
    ValidationError,
    VerifactuError,
)
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = [
    "AuthenticationError",
    "ConflictError",
    "FieldError",
    "InvalidRequestError",
    "NotFoundError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "ValidationError",
    "VerifactuClient",
    "VerifactuError",
    "WebhookVerificationError",
    "is_final",
    "retry_after_seconds",
    "sign_webhook",
    "verify_webhook",
]
