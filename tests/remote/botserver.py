"""A small HTTP bot server for the tests, on loopback in a thread of the test process: it plays
the first legal action, or misbehaves as its `mode` says (slow, garbage, deep, huge, redirect, error,
drip). It counts requests and TCP connections, so tests can see keep-alive at work."""

from __future__ import annotations

import json
import threading
import time
from http.server import ThreadingHTTPServer

from engine.remote_bench import FirstLegalHandler


class BotHandler(FirstLegalHandler):
    def setup(self):
        super().setup()
        self.server.connections += 1

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        message = json.loads(self.rfile.read(length))
        server = self.server
        server.messages.append(message)
        mode = server.mode
        if mode == "drops-idle":
            # Closes every connection after its answer, without saying so (as servers do with
            # keep-alive connections they find idle): the next request meets a closed socket.
            self.close_connection = True
        if message.get("type") != "act":
            return self.answer(200, b"{}")
        if mode == "slow":
            time.sleep(server.delay)
        if mode == "garbage":
            return self.answer(200, b"<html>surely not json</html>")
        if mode == "deep":  # JSON nested deeper than any decoder recurses
            return self.answer(200, b"[" * 60000)
        if mode == "not-a-string":
            return self.answer(200, json.dumps({"action": 42}).encode())
        if mode == "huge":
            return self.answer(200, b'{"action": "' + b"x" * (4 << 20) + b'"}')
        if mode == "redirect":
            self.send_response(307)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if mode == "error":
            return self.answer(500, b"boom")
        if mode == "drip":
            body = json.dumps({"action": message["legal"][0]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body) + 200))
            self.end_headers()
            for _ in range(200):  # one byte every 50 ms: never done in time
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.05)
            return None
        return self.answer(200, json.dumps(self.reply(message)).encode())


class BotServer:
    """`with BotServer("good") as server: server.url`"""

    def __init__(self, mode: str = "good", delay: float = 1.0, path: str = "/bot"):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), BotHandler)
        self.httpd.daemon_threads = True
        self.httpd.mode = mode
        self.httpd.delay = delay
        self.httpd.messages = []
        self.httpd.connections = 0
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def messages(self) -> list[dict]:
        return self.httpd.messages

    @property
    def connections(self) -> int:
        return self.httpd.connections

    def __enter__(self) -> BotServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
