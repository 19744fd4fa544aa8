import unittest
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

from verifactu_client import RateLimitError, ServerError, ValidationError, VerifactuClient, retry_after_seconds

from .scripted_server import Reply, ScriptedServer, problem

INVOICE = {"invoice_number": "F-1"}
REGISTERED = {"message": "ok", "data": {"id": "inv-1"}}


class Retries(unittest.TestCase):
    def client(self, server: ScriptedServer, **options):
        self.waits: list[float] = []
        return VerifactuClient(server.url, "vfk_test", base_delay=0.05, sleep=self.waits.append, **options)

    def test_a_503_is_retried_with_the_same_idempotency_key_after_the_retry_after_asked(self):
        replies = [Reply(503, problem(503, "service_unavailable"), {"Retry-After": "2"}), Reply(201, REGISTERED)]
        with ScriptedServer(replies) as server:
            answer = self.client(server).register_invoice(INVOICE)
        self.assertEqual(answer["data"]["id"], "inv-1")
        keys = [r.headers.get("Idempotency-Key") for r in server.received]
        self.assertEqual(len(keys), 2)
        self.assertRegex(keys[0], r"^[0-9a-f-]{36}$")
        self.assertEqual(keys[1], keys[0])
        self.assertEqual(len(self.waits), 1)
        self.assertGreaterEqual(self.waits[0], 2)
        self.assertLess(self.waits[0], 2.05)

    def test_each_call_gets_its_own_key_and_a_key_given_is_sent_as_is(self):
        with ScriptedServer([Reply(201, REGISTERED)] * 3) as server:
            client = self.client(server)
            client.register_invoice(INVOICE)
            client.register_invoice(INVOICE)
            client.register_invoice(INVOICE, idempotency_key="order-42")
        keys = [r.headers.get("Idempotency-Key") for r in server.received]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "order-42")
        self.assertEqual(server.received[0].headers.get("Authorization"), "Bearer vfk_test")

    def test_a_429_and_a_lost_connection_are_retried_with_backoff(self):
        replies = [Reply(429, problem(429, "rate_limited")), Reply(0, drop=True), Reply(200, {"data": {"id": "inv-1"}})]
        with ScriptedServer(replies) as server:
            invoice = self.client(server).get_invoice("inv-1")
        self.assertEqual(invoice, {"id": "inv-1"})
        self.assertEqual(len(server.received), 3)
        self.assertEqual(len(self.waits), 2)
        self.assertTrue(all(0 <= wait <= 0.1 for wait in self.waits))

    def test_another_4xx_is_never_retried_and_is_raised_with_its_field_errors(self):
        errors = [{"field": "invoice_date", "code": "invalid_date", "message": "not a date"}]
        with ScriptedServer([Reply(422, problem(422, "validation_failed", errors=errors))]) as server:
            with self.assertRaises(ValidationError) as raised:
                self.client(server).register_invoice(INVOICE)
        self.assertEqual(len(server.received), 1)
        self.assertEqual(raised.exception.code, "validation_failed")
        self.assertEqual(raised.exception.detail, "validation_failed detail")
        self.assertEqual([e.field for e in raised.exception.errors], ["invoice_date"])

    def test_a_500_or_502_is_not_retried(self):
        for status in (500, 502):
            with ScriptedServer([Reply(status, problem(status, "internal_error")), Reply(201, REGISTERED)]) as server:
                with self.assertRaises(ServerError):
                    self.client(server).register_invoice(INVOICE)
            self.assertEqual((len(server.received), self.waits), (1, []))

    def test_retries_stop_at_the_limit_and_the_last_problem_is_raised(self):
        with ScriptedServer([Reply(429, problem(429, "rate_limited"))] * 3) as server:
            with self.assertRaises(RateLimitError):
                self.client(server, retries=2).get_invoice("inv-1")
        self.assertEqual(len(server.received), 3)

    def test_a_retry_after_beyond_the_longest_wait_is_not_waited_for(self):
        reply = Reply(429, problem(429, "quota_exceeded"), {"Retry-After": "86400"})
        with ScriptedServer([reply]) as server:
            with self.assertRaises(RateLimitError) as raised:
                self.client(server).get_invoice("inv-1")
        self.assertEqual((raised.exception.code, self.waits), ("quota_exceeded", []))

    def test_retry_after_is_read_as_seconds_or_as_a_date(self):
        now = datetime(2026, 11, 29, 12, 0, 0, tzinfo=timezone.utc)
        later = format_datetime(now + timedelta(seconds=90), usegmt=True)
        self.assertEqual(retry_after_seconds("7"), 7)
        self.assertEqual(retry_after_seconds(later, now=now.timestamp()), 90)
        self.assertIsNone(retry_after_seconds("soon"))
        self.assertIsNone(retry_after_seconds(None))


if __name__ == "__main__":
    unittest.main()
