"""Slow clients against a web server, and what another client sees meanwhile (for
`manage.py bench_slow_clients`): `connections` clients each send a request header one line at a
time, a line every `interval` seconds, and open a new connection whenever the server closes
theirs (what a "slowloris" does); one more client asks for `path` `rate` times a second and
times each answer."""

from __future__ import annotations

import asyncio
import http.client
import statistics
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Latencies:
    seconds: list[float] = field(default_factory=list)
    failed: int = 0  # no answer within the timeout, a refused connection, or not a 200

    def percentile(self, q: int) -> float | None:
        if not self.seconds:
            return None
        if len(self.seconds) == 1:
            return self.seconds[0]
        return statistics.quantiles(self.seconds, n=100, method="inclusive")[q - 1]

    def line(self) -> str:
        p50, p95 = self.percentile(50), self.percentile(95)
        shown = [f"{v * 1000:.1f} ms" if v is not None else "-" for v in (p50, p95)]
        top = f"{max(self.seconds) * 1000:.1f} ms" if self.seconds else "-"
        return (
            f"p50 {shown[0]}, p95 {shown[1]}, max {top}; "
            f"{len(self.seconds)} answered, {self.failed} failed"
        )


def measure(host: str, port: int, path: str, seconds: float, rate: float, timeout: float):
    """GET `path` `rate` times a second for `seconds`, each on a new connection."""
    out = Latencies()
    pause, deadline = 1.0 / rate, time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            connection = http.client.HTTPConnection(host, port, timeout=timeout)
            connection.request("GET", path, headers={"Host": host})
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status == 200:
                out.seconds.append(time.monotonic() - start)
            else:
                out.failed += 1
        except OSError:
            out.failed += 1
        time.sleep(max(0.0, pause - (time.monotonic() - start)))
    return out


@dataclass
class Attack:
    """The slow clients, in a thread of their own (one event loop, `connections` sockets)."""

    host: str
    port: int
    connections: int
    interval: float
    opened: int = 0  # connections made, the reconnections included
    closed_by_server: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + 10)

    async def _run(self) -> None:
        await asyncio.gather(*(self._client(i) for i in range(self.connections)))

    async def _client(self, number: int) -> None:
        await asyncio.sleep(number * 0.005)  # not all in the same millisecond
        while not self._stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError:
                await asyncio.sleep(0.5)
                continue
            self.opened += 1
            try:
                writer.write(f"GET /healthz HTTP/1.1\r\nHost: {self.host}\r\n".encode())
                await writer.drain()
                line = 0
                while not self._stop.is_set():
                    try:  # the server's answer (a 408) or its close ends this connection
                        await asyncio.wait_for(reader.read(1024), self.interval)
                        break
                    except TimeoutError:
                        pass
                    line += 1
                    writer.write(f"X-Slow-{line}: {'a' * 8}\r\n".encode())
                    await writer.drain()
                if not self._stop.is_set():
                    self.closed_by_server += 1
            except OSError:
                self.closed_by_server += 1
            finally:
                writer.close()
