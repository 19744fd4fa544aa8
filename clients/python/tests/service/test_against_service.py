"""The client against a running service (e2e/src/client/python-client.test.ts starts it and sets the environment).

VERIFACTU_URL and VERIFACTU_API_KEY: the service and an account's key; VERIFACTU_INVOICE: an invoice this account
may register (JSON), whose number each test replaces; VERIFACTU_LOSSY_URL: a proxy to the service that answers the
first registration sent through it with a 503 after the service has made it.
"""

from __future__ import annotations

import json
import os
import threading
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from verifactu_client import ValidationError, VerifactuClient, WebhookVerificationError, verify_webhook

URL = os.environ.get("VERIFACTU_URL", "")
API_KEY = os.environ.get("VERIFACTU_API_KEY", "")
RUN = uuid.uuid4().hex[:6].upper()


def invoice(number: str, **overrides: Any) -> Any:
    return {**json.loads(os.environ["VERIFACTU_INVOICE"]), "invoice_number": f"{number}-{RUN}", **overrides}


@unittest.skipUnless(URL and API_KEY, "VERIFACTU_URL and VERIFACTU_API_KEY name a running service")
class AgainstTheService(unittest.TestCase):
    def setUp(self) -> None:
        self.client = VerifactuClient(URL, API_KEY, base_delay=0.05)

    def test_registers_waits_for_accepted_then_corrects_and_cancels(self):
        body = invoice("PY-LIFE")
        registered = self.client.register_invoice(body)["data"]
        self.assertEqual(self.client.wait_for_final_status(registered["id"], interval=0.2)["authority_status"], "accepted")

        correction = self.client.correct_invoice(registered["id"], {**body, "description": "Corrected description"})
        self.assertEqual(correction["record_type"], "correction")
        corrected = self.client.wait_for_final_status(registered["id"], interval=0.2)
        self.assertEqual((corrected["authority_status"], corrected["description"]), ("accepted", "Corrected description"))

        self.client.cancel_invoice(registered["id"], {"reason": "Issued by mistake"})
        cancelled = self.client.wait_for_final_status(registered["id"], interval=0.2)
        self.assertEqual((cancelled["authority_status"], cancelled["cancelled"]), ("accepted", True))

    def test_pages_through_the_list_and_exports_the_same_invoices_as_csv(self):
        numbers = [f"PY-LIST-{n}-{RUN}" for n in (1, 2, 3)]
        batch = self.client.register_invoice_batch([invoice(n.removesuffix(f"-{RUN}")) for n in numbers])
        self.assertEqual([r["status"] for r in batch["results"]], [201, 201, 201])

        listed = [row["invoice_number"] for row in self.client.iter_invoices(number_prefix="PY-LIST-", limit=2, sort="invoice_number")]
        self.assertEqual(listed, numbers)
        self.assertIsNotNone(self.client.list_invoices(number_prefix="PY-LIST-", limit=2)["next_cursor"])

        csv = self.client.export_invoices_csv(number_prefix="PY-LIST-", sort="invoice_number")
        self.assertEqual([line.split(";")[0] for line in csv.split("\r\n") if line.startswith("PY-LIST-")], numbers)

    @unittest.skipUnless(os.environ.get("VERIFACTU_LOSSY_URL"), "VERIFACTU_LOSSY_URL names a proxy that loses an answer")
    def test_a_registration_whose_answer_is_lost_to_a_503_is_registered_once(self):
        via_proxy = VerifactuClient(os.environ["VERIFACTU_LOSSY_URL"], API_KEY, base_delay=0.05)
        registered = via_proxy.register_invoice(invoice("PY-LOST"))["data"]
        page = self.client.list_invoices(number_prefix="PY-LOST-")
        self.assertEqual([row["id"] for row in page["data"]], [registered["id"]])

    def test_a_422_is_raised_with_its_code_detail_and_field_errors(self):
        with self.assertRaises(ValidationError) as raised:
            self.client.register_invoice(invoice("PY-BAD", invoice_date="2026-02-30", invoice_type="F9"))
        error = raised.exception
        self.assertEqual((error.status, error.code), (422, "validation_failed"))
        self.assertTrue(error.detail)
        self.assertLessEqual({"invoice_date", "invoice_type"}, {e.field for e in error.errors})

    def test_verifies_a_webhook_the_service_delivers_and_refuses_it_once_changed(self):
        with WebhookReceiver() as receiver:
            webhook = self.client.create_webhook({"url": f"{receiver.url}/hooks", "events": ["invoice.accepted"]})
            registered = self.client.register_invoice(invoice("PY-HOOK"))["data"]
            # Other tests' invoices may be accepted after the subscription too: the one registered here is waited for.
            body, headers = receiver.delivery_of(registered["id"], timeout=60)
        event = verify_webhook(webhook["secret"], body, headers)
        self.assertEqual((event["type"], event["data"]["invoice_id"]), ("invoice.accepted", registered["id"]))
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(webhook["secret"], body.replace(b"accepted", b"rejected"), headers)


class WebhookReceiver:
    """An endpoint on 127.0.0.1 that keeps every delivery's raw body and headers."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, dict[str, str]]] = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.arrived:
                    receiver.deliveries.append((body, dict(self.headers.items())))
                    receiver.arrived.notify_all()
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def delivery_of(self, invoice_id: str, timeout: float) -> tuple[bytes, dict[str, str]]:
        def find() -> tuple[bytes, dict[str, str]] | None:
            return next((d for d in self.deliveries if json.loads(d[0])["data"].get("invoice_id") == invoice_id), None)

        with self.arrived:
            if not self.arrived.wait_for(find, timeout):
                raise AssertionError(f"no webhook delivery of invoice {invoice_id} within {timeout} s")
            return find()  # type: ignore[return-value]

    def __enter__(self) -> "WebhookReceiver":
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


if __name__ == "__main__":
    unittest.main()
