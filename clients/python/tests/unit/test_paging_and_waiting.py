import unittest
from urllib.parse import parse_qs, urlsplit

from verifactu_client import VerifactuClient

from .scripted_server import Reply, ScriptedServer


def row(number: str) -> dict:
    return {"id": f"id-{number}", "invoice_number": number}


def invoice(status: str, next_attempt_at: str | None = None) -> dict:
    return {"data": {"id": "inv-1", "authority_status": status, "next_attempt_at": next_attempt_at}}


class Paging(unittest.TestCase):
    def test_iter_invoices_follows_the_cursor_to_the_last_page_with_the_same_filters(self):
        pages = [
            Reply(200, {"data": [row("A-1"), row("A-2")], "next_cursor": "c2", "total": 3}),
            Reply(200, {"data": [row("A-3")], "next_cursor": None, "total": 3}),
        ]
        with ScriptedServer(pages) as server:
            numbers = [r["invoice_number"] for r in VerifactuClient(server.url).iter_invoices(number_prefix="A-", limit=2)]
        self.assertEqual(numbers, ["A-1", "A-2", "A-3"])
        queries = [parse_qs(urlsplit(r.path).query) for r in server.received]
        self.assertEqual(queries, [{"number_prefix": ["A-"], "limit": ["2"]}, {"number_prefix": ["A-"], "limit": ["2"], "cursor": ["c2"]}])


class Waiting(unittest.TestCase):
    def test_waits_out_pending_and_a_retried_error_until_the_authority_answers(self):
        replies = [
            Reply(200, invoice("pending")),
            Reply(200, invoice("error", next_attempt_at="2026-11-29T12:00:00Z")),
            Reply(200, invoice("accepted")),
        ]
        with ScriptedServer(replies) as server:
            final = VerifactuClient(server.url).wait_for_final_status("inv-1", interval=0)
        self.assertEqual((final["authority_status"], len(server.received)), ("accepted", 3))

    def test_an_error_nobody_retries_is_final_and_a_wait_that_runs_out_raises(self):
        with ScriptedServer([Reply(200, invoice("error"))]) as server:
            self.assertEqual(VerifactuClient(server.url).wait_for_final_status("inv-1")["authority_status"], "error")
        with ScriptedServer([Reply(200, invoice("pending"))] * 2) as server:
            with self.assertRaises(TimeoutError):
                VerifactuClient(server.url).wait_for_final_status("inv-1", timeout=0.05, interval=0.04)


if __name__ == "__main__":
    unittest.main()
