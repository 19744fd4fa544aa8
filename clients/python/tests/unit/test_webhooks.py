import unittest

from verifactu_client import WebhookVerificationError, sign_webhook, verify_webhook

# The test vector of the Standard Webhooks specification, which the service's signer (the standardwebhooks package)
# reproduces as well.
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MESSAGE_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(signature: str = SIGNATURE, timestamp: int = TIMESTAMP) -> dict[str, str]:
    return {"Webhook-Id": MESSAGE_ID, "Webhook-Timestamp": str(timestamp), "Webhook-Signature": signature}


class WebhookVerification(unittest.TestCase):
    def test_signs_as_the_specification_does(self):
        self.assertEqual(sign_webhook(SECRET, MESSAGE_ID, TIMESTAMP, BODY), SIGNATURE)

    def test_a_delivery_signed_with_the_secret_is_returned_as_its_event(self):
        event = verify_webhook(SECRET, BODY.encode(), headers(), now=TIMESTAMP + 10)
        self.assertEqual(event, {"test": 2432232314})

    def test_one_matching_signature_among_several_is_enough(self):
        event = verify_webhook(SECRET, BODY, headers(f"v1,bm90IHRoaXMgb25l {SIGNATURE}"), now=TIMESTAMP)
        self.assertEqual(event, {"test": 2432232314})

    def test_a_changed_body_a_wrong_secret_or_a_missing_header_is_refused(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY.replace("2432232314", "2432232315"), headers(), now=TIMESTAMP)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook("whsec_" + "A" * 32, BODY, headers(), now=TIMESTAMP)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY, {"webhook-id": MESSAGE_ID, "webhook-signature": SIGNATURE}, now=TIMESTAMP)

    def test_a_delivery_older_or_newer_than_five_minutes_is_refused(self):
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY, headers(), now=TIMESTAMP + 301)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(SECRET, BODY, headers(), now=TIMESTAMP - 301)


if __name__ == "__main__":
    unittest.main()
