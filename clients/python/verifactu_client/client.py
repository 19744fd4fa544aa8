"""The client: the generated operations, called over HTTP with retries, problems raised as exceptions."""

from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any, Callable, Iterator, Literal

from ._generated import GetInvoiceResult, ListInvoicesResponse, Operations
from ._transport import RetryPolicy, Transport
from .errors import error_from_response

FINAL_STATUSES = frozenset({"accepted", "accepted_with_warnings", "rejected"})


def is_final(invoice: GetInvoiceResult) -> bool:
    """The authority answered, or an error waits for someone (the service plans no next attempt)."""
    status = invoice["authority_status"]
    return status in FINAL_STATUSES or (status == "error" and invoice.get("next_attempt_at") is None)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class VerifactuClient(Operations):
    """The VERI*FACTU registration API (``/api/v1``).

    Every operation of the OpenAPI document is a method named after its operationId (``register_invoice``,
    ``get_invoice``, ``list_invoices``…). Writes carry an Idempotency-Key (yours, or a new UUID) that their retries
    reuse; 429, 503 and network errors are retried honouring Retry-After; a problem is raised as a VerifactuError
    of its family (ValidationError, NotFoundError…).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        retries: int = 3,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        base = base_url.rstrip("/")
        self.base_url = base if base.endswith("/api/v1") else f"{base}/api/v1"
        self._api_key = api_key
        self._transport = Transport(RetryPolicy(retries, base_delay, max_delay), timeout, sleep)

    def _call(
        self,
        method: str,
        path: str,
        *,
        path_params: dict[str, str] | None = None,
        query: dict[str, Any] | None = None,
        body: Any = None,
        headers: dict[str, str | None] | None = None,
        expect: Literal["json", "text", "bytes", "none"] = "json",
        unwrap: str | None = None,
    ) -> Any:
        for name, value in (path_params or {}).items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        params = [(name, _query_value(value)) for name, value in (query or {}).items() if value is not None]
        url = self.base_url + path + (f"?{urllib.parse.urlencode(params)}" if params else "")
        sent = {"Accept": "application/json", "User-Agent": "verifactu-client-python/0.1"}
        if self._api_key:
            sent["Authorization"] = f"Bearer {self._api_key}"
        sent.update({name: value for name, value in (headers or {}).items() if value is not None})
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            sent["Content-Type"] = "application/json"
        answer = self._transport.send(method, url, sent, data)
        if not 200 <= answer.status < 300:
            raise error_from_response(answer.status, answer.headers, answer.body)
        if expect == "none":
            return None
        if expect == "bytes":
            return answer.body
        if expect == "text":
            # The CSV export starts with a BOM (for spreadsheets); the text is what follows it.
            return answer.body.decode("utf-8-sig")
        document = json.loads(answer.body.decode("utf-8"))
        return document[unwrap] if unwrap else document

    def iter_invoices(self, **filters: Any) -> Iterator[Any]:
        """Every invoice matching the filters of ``list_invoices``, page after page (the cursor followed)."""
        cursor: str | None = None
        while True:
            page: ListInvoicesResponse = self.list_invoices(**filters, cursor=cursor)
            yield from page["data"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def export_invoices_csv(self, **filters: Any) -> str:
        """The CSV export (``;`` between fields, CRLF lines) of every invoice matching the filters."""
        return self.export_invoices(**filters, format="csv")

    def wait_for_final_status(self, invoice_id: str, *, timeout: float = 300.0, interval: float = 1.0) -> GetInvoiceResult:
        """Polls the invoice until the authority has answered its latest record.

        Returns it once ``accepted``, ``accepted_with_warnings``, ``rejected``, or an ``error`` that needs an action
        (one the service retries by itself is waited out); raises TimeoutError after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            invoice = self.get_invoice(invoice_id)
            if is_final(invoice):
                return invoice
            if time.monotonic() + interval > deadline:
                raise TimeoutError(f"invoice {invoice_id} is still {invoice['authority_status']} after {timeout} s")
            time.sleep(interval)
