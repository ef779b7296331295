"""Remote bots over HTTP, as Battlesnake does: the bot is a web server, the engine POSTs each
protocol message to the bot's URL as a JSON body, and the answer to a decision is the JSON body
`{"action": "<one of legal>"}`. Other messages need no answer but a 2xx status.

One keep-alive connection per seat (reopened after a timeout or an error). Every request has a
hard deadline: a watchdog shuts the socket when it passes, so a server that drips its answer a
byte at a time gets no more time than one that never answers. The terminations are the
engine's usual ones: no answer in time is a `timeout` (the game's default move the first time,
a forfeit the second), a refused connection, an HTTP error or a redirect is a `crash`, and an
answer that is not JSON, too big, or not an action string is an `illegal_action`.

Redirects are never followed (a redirect is how a request forgery escapes a host check), and the
answer is read up to `max_answer_bytes` only. Which URLs may be called at all is the policy of
`engine.remote_policy`, checked again at every connection.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Mapping
from typing import Any

from .bot import BotCrashed, DecisionTimeout
from .observation import Observation, plain
from .remote_policy import RemotePolicy, RemoteRefused, Target, check_url, connect_checked
from .sandbox import DEFAULT_DEADLINE, Malformed

PROTOCOL = "truco-bot/1"
USER_AGENT = "truco-arena-remote-bot/1"


class RemoteTimeout(Exception):
    """No complete answer before the deadline."""


class RemoteFailed(Exception):
    """The bot could not be reached or answered with an error, a redirect or a refusal."""


class BadAnswer(Exception):
    """The bot answered 2xx, but not with something the engine can read."""


class HttpTransport:
    """POSTs JSON messages to one URL over one keep-alive connection."""

    def __init__(self, url: str, policy: RemotePolicy | None = None):
        from .remote_policy import current_policy

        self.policy = policy or current_policy()
        self.target: Target = check_url(url, self.policy)
        self._conn: http.client.HTTPConnection | None = None
        self._expired = False

    # --- the connection ----------------------------------------------------------------
    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._conn is None:
            kind = (
                http.client.HTTPSConnection
                if self.target.scheme == "https"
                else http.client.HTTPConnection
            )
            conn = kind(self.target.host, self.target.port, timeout=timeout)
            target, policy = self.target, self.policy
            # http.client opens its socket through this hook; HTTPS wraps the socket it returns
            # in TLS for the host name, so certificates are checked against the name while the
            # address connected to is the one checked.
            conn._create_connection = lambda address, t=None, source=None: connect_checked(
                target, policy, timeout if t is None else t
            )
            self._conn = conn
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _expire(self, conn: http.client.HTTPConnection) -> None:
        """The watchdog: the deadline passed; unblock whatever is reading or writing."""
        self._expired = True
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # --- messages ----------------------------------------------------------------------
    def request(self, message: Mapping[str, Any], deadline: float) -> Any:
        """POST `message`; the decoded JSON answer. `deadline` is in seconds from now."""
        body = self._post(message, deadline)
        try:
            return json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BadAnswer(f"the answer is not JSON: {_excerpt(body)}") from None

    def send(self, message: Mapping[str, Any], deadline: float) -> None:
        """POST a message that needs no answer (its body is read, bounded, and dropped)."""
        self._post(message, deadline)

    def _post(self, message: Mapping[str, Any], seconds: float) -> bytes:
        data = json.dumps(message, separators=(",", ":")).encode()
        started = time.monotonic()
        self._expired = False
        conn = self._connection(seconds)
        watchdog = threading.Timer(seconds, self._expire, args=(conn,))
        watchdog.daemon = True
        watchdog.start()
        try:
            if conn.sock is not None:
                conn.sock.settimeout(seconds)
            conn.timeout = seconds
            conn.request(
                "POST",
                self.target.path,
                data,
                headers={
                    "Content-Type": "application/json",
                    "Accept": "application/json",
                    "User-Agent": USER_AGENT,
                },
            )
            response = conn.getresponse()
            body = self._read(response)
        except RemoteRefused as exc:
            self.close()
            raise RemoteFailed(str(exc)) from None
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            if self._expired or isinstance(exc, TimeoutError):
                raise RemoteTimeout(f"no answer within {seconds:g}s") from None
            raise RemoteFailed(f"cannot talk to the bot: {type(exc).__name__}: {exc}") from None
        except (RemoteFailed, BadAnswer):
            self.close()
            raise
        finally:
            watchdog.cancel()
        if self._expired or time.monotonic() - started > seconds:
            self.close()
            raise RemoteTimeout(f"no answer within {seconds:g}s")
        if response.will_close:
            self.close()
        return body

    def _read(self, response: http.client.HTTPResponse) -> bytes:
        status = response.status
        if 300 <= status < 400:
            location = response.getheader("Location", "")
            raise RemoteFailed(
                f"the bot answered a redirect ({status} to {_excerpt(location.encode())}); "
                "remote bots are never followed to another address"
            )
        if not 200 <= status < 300:
            raise RemoteFailed(f"the bot answered HTTP {status} {response.reason}"[:200])
        limit = self.policy.max_answer_bytes
        length = response.getheader("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > limit:
            raise BadAnswer(f"the answer is {int(length)} bytes: more than {limit} bytes")
        body = response.read(limit + 1)
        if len(body) > limit:
            raise BadAnswer(f"the answer is more than {limit} bytes")
        if not response.isclosed():
            response.read()  # a body shorter than announced: nothing more is coming
        return body


def _excerpt(data: bytes, size: int = 80) -> str:
    text = data[:size].decode("utf-8", "replace")
    return repr(text) + ("..." if len(data) > size else "")


class RemoteBot:
    """A seat played by a remote bot; quacks like `engine.bot.Bot` for the runner."""

    enforces_deadline = True  # the transport's watchdog keeps the deadline

    def __init__(
        self,
        url: str,
        *,
        variant: str,
        options: Mapping[str, Any],
        seat: int,
        players: int,
        deadline: float | None = None,
        policy: RemotePolicy | None = None,
    ):
        self.deadline = DEFAULT_DEADLINE if deadline is None else deadline
        self.transport = HttpTransport(url, policy)  # RemoteRefused: the caller decides
        self.seat = seat
        self.hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "variant": variant,
            "options": plain(dict(options)),
            "seat": seat,
            "players": players,
            "deadline_seconds": self.deadline,
        }
        self._greeted = False
        self._broken: str | None = None

    def _greet(self) -> None:
        if self._greeted:
            return
        self._greeted = True
        try:
            self.transport.send(self.hello, self.deadline)
        except (RemoteTimeout, RemoteFailed, BadAnswer) as exc:
            self._broken = f"the bot did not take the hello: {exc}"

    def act(self, observation: Observation) -> Any:
        self._greet()
        if self._broken is not None:
            raise BotCrashed(self._broken)
        message = {
            "type": "act",
            "seat": self.seat,
            "legal": list(observation.legal),
            "observation": plain(observation.to_dict()),
        }
        try:
            answer = self.transport.request(message, self.deadline)
        except RemoteTimeout as exc:
            raise DecisionTimeout(str(exc)) from None
        except RemoteFailed as exc:
            raise BotCrashed(str(exc)[:500]) from None
        except BadAnswer as exc:
            return Malformed(str(exc)[:200])
        action = answer.get("action") if isinstance(answer, dict) else None
        if isinstance(action, str):
            return action
        return Malformed(f"not an action: {_excerpt(json.dumps(answer).encode())}"[:200])

    def on_hand_end(self, observation: Observation) -> None:
        self._notice("hand_end", observation)

    def on_game_end(self, observation: Observation) -> None:
        self._notice("game_end", observation)

    def _notice(self, kind: str, observation: Observation) -> None:
        """A courtesy, as for every bot: a bot failing on one changes nothing but its
        connection (reopened for the next decision)."""
        if not self._greeted or self._broken is not None:
            return
        try:
            self.transport.send(
                {"type": kind, "seat": self.seat, "observation": plain(observation.to_dict())},
                self.deadline,
            )
        except (RemoteTimeout, RemoteFailed, BadAnswer):
            pass

    def close(self) -> None:
        self.transport.close()
