"""A local HTTP server that answers from a script and records what it was sent."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    # Closes the connection without an answer: what a network failure looks like to the client.
    drop: bool = False


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class ScriptedServer:
    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.received: list[Received] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                server.received.append(
                    Received(self.command, self.path, dict(self.headers.items()), self.rfile.read(length))
                )
                reply = server.replies.pop(0)
                if reply.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                content = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                self.send_response(reply.status)
                content_type = "application/problem+json" if reply.status >= 400 else "application/json"
                for name, value in {"Content-Type": content_type, **reply.headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PUT = do_DELETE = _answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> "ScriptedServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def problem(status: int, code: str, **extra: Any) -> dict[str, Any]:
    return {"type": f"urn:vf:problem:{code}", "title": code, "status": status, "detail": f"{code} detail", "code": code,
            "request_id": "req-1", **extra}
