import unittest

from verifactu_client import ConflictError, NotFoundError, ServerError, VerifactuClient

from .scripted_server import Reply, ScriptedServer, problem


class Problems(unittest.TestCase):
    def test_each_family_of_problem_is_its_own_exception_with_the_problems_code(self):
        replies = [Reply(404, problem(404, "invoice_not_found")), Reply(409, problem(409, "duplicate_invoice"))]
        with ScriptedServer(replies) as server:
            client = VerifactuClient(server.url, "vfk_test")
            with self.assertRaises(NotFoundError) as missing:
                client.get_invoice("nope")
            with self.assertRaises(ConflictError) as duplicate:
                client.register_invoice({"invoice_number": "F-1"})
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "invoice_not_found"))
        self.assertEqual(missing.exception.request_id, "req-1")
        self.assertEqual(duplicate.exception.code, "duplicate_invoice")
        self.assertEqual(server.received[0].path, "/api/v1/invoices/nope")

    def test_an_answer_that_is_not_a_problem_gets_an_http_code(self):
        with ScriptedServer([Reply(502, b"<html>Bad gateway</html>")]) as server:
            with self.assertRaises(ServerError) as raised:
                VerifactuClient(server.url, retries=0).get_health()
        self.assertEqual((raised.exception.status, raised.exception.code), (502, "http_502"))
        self.assertIn("Bad gateway", raised.exception.detail)


if __name__ == "__main__":
    unittest.main()
