"""`python -m engine.remote_bench`: what a remote bot costs per decision over loopback, with the
engine's HTTP transport (one keep-alive connection per seat per match). It starts a tiny bot
server on 127.0.0.1 that answers the first legal action, allows loopback for this process only,
plays remote-vs-random games and prints decisions per second and the round trip of a decision
(median and p99), next to the same games with both seats in process."""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import remote, remote_policy
from .match import MatchSpec, play_match
from .remote import HttpTransport


class FirstLegalHandler(BaseHTTPRequestHandler):
    """A remote bot in a few lines: answers `act` with its first legal action, anything else
    with `{}`."""

    protocol_version = "HTTP/1.1"  # keep-alive
    disable_nagle_algorithm = True  # headers and body leave together (no 40 ms delayed ACK)

    def log_message(self, *args):
        pass

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        self.answer(200, json.dumps(self.reply(message)).encode())

    def reply(self, message: dict) -> dict:
        return {"action": message["legal"][0]} if message.get("type") == "act" else {}

    def answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


def start_server(handler=FirstLegalHandler) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class TimedTransport(HttpTransport):
    """The transport, timing each decision's round trip."""

    times: list[float] = []

    def request(self, message, seconds):
        started = time.perf_counter()
        try:
            return super().request(message, seconds)
        finally:
            TimedTransport.times.append(time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.remote_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    server = start_server()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    remote_policy.configure(remote_policy.RemotePolicy.of(True, "127.0.0.1", "127.0.0.0/8"))
    remote.HttpTransport = TimedTransport  # remote_actor connects through this name
    try:
        started = time.perf_counter()
        play_match(MatchSpec("paulista", url, "random", games=args.games, seed=1))
        remote_seconds = time.perf_counter() - started
        started = time.perf_counter()
        play_match(MatchSpec("paulista", "random", "random", games=args.games, seed=1))
        local_seconds = time.perf_counter() - started
    finally:
        remote.HttpTransport = HttpTransport
        server.shutdown()
    times = sorted(TimedTransport.times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"remote bot over loopback HTTP, {args.games} games, {len(times)} remote decisions")
    print(f"  decisions/s (remote seat): {len(times) / remote_seconds:10.0f}")
    print(
        f"  round trip per decision:  median {statistics.median(times) * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms"
    )
    print(
        f"  games/s: remote vs random {args.games / remote_seconds:.1f}, "
        f"random vs random in process {args.games / local_seconds:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
