"""Remote bots over HTTP, as Battlesnake does: the bot is a web server, the engine POSTs each
message of the bot protocol (engine/protocol.py, docs/bot-protocol.md) to the bot's URL as a
JSON body, and the answer to a decision (`act`) is the JSON body `{"action": "<one of legal>"}`.
Other messages need no answer but a 2xx status.

The seat's actor is the protocol's `ProtocolBot` over `HttpTransport`: one per seat per match
(engine/seats.py), so one keep-alive connection per seat per match (reopened after a timeout or
an error). Every request has a hard deadline: a watchdog shuts the socket when it passes, so a
server that drips its answer a byte at a time gets no more time than one that never answers. The terminations are the
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

from .protocol import (
    DEFAULT_DECISION_SECONDS,
    BotExited,
    BotTimeout,
    MalformedReply,
    ProtocolBot,
    encode,
    match_message,
)
from .remote_policy import (
    RemotePolicy,
    RemoteRefused,
    Target,
    check_url,
    connect_checked,
    current_policy,
)

USER_AGENT = "truco-arena-remote-bot/1"


def remote_actor(spec, context) -> ProtocolBot:
    """The seat's actor for a match (registered in engine/seats.py for isolation `remote`)."""
    seconds = context.decision_seconds
    match = match_message(
        bot=spec.name,
        params={},
        variant=context.variant,
        options=context.options,
        players=context.players,
        decision_seconds=seconds,
        limits={"answer_bytes": current_policy().max_answer_bytes},
    )
    return ProtocolBot(
        lambda: open_transport(spec.url, seconds or DEFAULT_DECISION_SECONDS),
        match,
        decision_seconds=seconds,
    )


def open_transport(url: str, notice_seconds: float, policy: RemotePolicy | None = None):
    """A transport to the bot, or BotExited when the server's policy refuses its URL (the
    bot's games are then `crash` forfeits with the reason for its owner)."""
    try:
        return HttpTransport(url, notice_seconds, policy)
    except RemoteRefused as exc:
        raise BotExited("remote bot refused by the server's policy", str(exc)) from None


class _Dropped(Exception):
    """The connection failed before an answer came (refused, reset, closed by the server)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class HttpTransport:
    """POSTs protocol messages as JSON to one URL over one keep-alive connection (a
    `engine.protocol.Transport`)."""

    def __init__(
        self,
        url: str,
        notice_seconds: float = DEFAULT_DECISION_SECONDS,
        policy: RemotePolicy | None = None,
    ):
        self.policy = policy or current_policy()
        self.target: Target = check_url(url, self.policy)
        self.notice_seconds = notice_seconds
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
            conn._create_connection = lambda address, t=None, source=None: self._open(
                target, policy, timeout if t is None else t
            )
            self._conn = conn
        return self._conn

    def _open(self, target: Target, policy: RemotePolicy, timeout: float) -> socket.socket:
        sock = connect_checked(target, policy, timeout)
        if self._expired:  # connecting took the whole deadline
            sock.close()
            raise TimeoutError("connecting took the whole deadline")
        return sock

    def close(self, graceful: bool = True) -> None:
        """Drop the connection (the bot's server keeps running: nothing of it is ours)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def log_since_last(self) -> str:
        return ""  # a remote bot keeps its own logs

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
    def request(self, message: Mapping[str, Any], seconds: float) -> Any:
        """POST `message`; the decoded JSON answer."""
        body = self._post(message, seconds)
        try:
            return json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):  # nested too deep
            raise MalformedReply("answered a body that is not JSON", _excerpt(body)) from None

    def send(self, message: Mapping[str, Any]) -> None:
        """POST a message that needs no answer (its body is read, bounded, and dropped). A bot
        that does not take it in time is treated as gone."""
        try:
            self._post(message, self.notice_seconds)
        except BotTimeout as exc:
            raise BotExited("remote bot did not take a message in time", exc.detail) from None
        except MalformedReply:
            pass  # nobody reads the answer to a notice

    def _post(self, message: Mapping[str, Any], seconds: float) -> bytes:
        data = encode(message)  # the protocol's own JSON (one line, as over a pipe)
        deadline = time.monotonic() + seconds
        reused = self._conn is not None and self._conn.sock is not None
        try:
            return self._exchange(data, seconds)
        except _Dropped as exc:
            # A server may close a keep-alive connection it found idle (most do after a few
            # seconds); the request never reached it, so it is sent again on a new one.
            remaining = deadline - time.monotonic()
            if not reused or remaining <= 0:
                raise BotExited("remote bot could not be reached", exc.reason) from None
        try:
            return self._exchange(data, remaining)
        except _Dropped as exc:
            raise BotExited("remote bot could not be reached", exc.reason) from None

    def _exchange(self, data: bytes, seconds: float) -> bytes:
        """One POST and its answer within `seconds`, on the kept connection or a new one."""
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
        except RemoteRefused as exc:  # at connection time: the address the name resolves to
            self.close()
            raise BotExited("remote bot refused by the server's policy", str(exc)) from None
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            if self._expired or isinstance(exc, TimeoutError):
                raise BotTimeout(
                    f"no answer within {seconds:g}s", f"no answer within {seconds:g}s"
                ) from None
            raise _Dropped(f"{type(exc).__name__}: {exc}") from None
        except (BotExited, MalformedReply):
            self.close()
            raise
        finally:
            watchdog.cancel()
        if self._expired or time.monotonic() - started > seconds:
            self.close()
            raise BotTimeout(f"no answer within {seconds:g}s", "")
        if response.will_close:
            self.close()
        return body

    def _read(self, response: http.client.HTTPResponse) -> bytes:
        status = response.status
        if 300 <= status < 400:
            location = response.getheader("Location", "")
            raise BotExited(
                f"remote bot answered a redirect ({status}), which is never followed",
                f"redirect to {_excerpt(location.encode())}",
            )
        if not 200 <= status < 300:
            raise BotExited(
                f"remote bot answered HTTP {status}",
                _excerpt(response.read(2000), 2000),
            )
        limit = self.policy.max_answer_bytes
        length = response.getheader("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > limit:
            raise MalformedReply(f"answered more than {limit} bytes", f"{int(length)} bytes")
        body = response.read(limit + 1)
        if len(body) > limit:
            raise MalformedReply(f"answered more than {limit} bytes", "")
        if not response.isclosed():
            response.read()  # a body shorter than announced: nothing more is coming
        return body


def _excerpt(data: bytes, size: int = 80) -> str:
    text = data[:size].decode("utf-8", "replace")
    return repr(text) + ("..." if len(data) > size else "")
