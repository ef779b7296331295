"""A signed-out spectator of a table over its push channel (`/ws/play/matches/<id>/`), for the
end-to-end tests: in a thread of its own, noting each state pushed to it and when."""

from __future__ import annotations

import json
import threading
import time

from websockets.sync.client import connect


class TableSpectator(threading.Thread):
    """`states`: (time.monotonic() when it came, the state), in order; `first` is set at the
    first state (or a failure), `ended` at a state of a match over; `failure` what went wrong."""

    def __init__(self, site: str, match_id: int):
        super().__init__(daemon=True)
        self.url = site.replace("http", "ws", 1) + f"/ws/play/matches/{match_id}/"
        self.origin = site
        self.states: list[tuple[float, dict]] = []
        self.first, self.ended, self.stopping = (threading.Event() for _ in range(3))
        self.failure: BaseException | None = None

    def run(self):
        try:
            with connect(self.url, additional_headers={"Origin": self.origin}) as socket:
                while not self.stopping.is_set():
                    try:
                        message = json.loads(socket.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if message.get("type") == "state":
                        self.states.append((time.monotonic(), message["state"]))
                        self.first.set()
                        if message["state"]["status"] == "done":
                            self.ended.set()
        except BaseException as exc:  # noqa: BLE001 - the test reports it
            self.failure = exc
            self.first.set()

    def stop(self):
        self.stopping.set()
        self.join(10)
