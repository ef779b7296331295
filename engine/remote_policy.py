"""Which remote bots a server may call: the operator's policy, and the checks of a bot's URL and of
every address it resolves to.

A remote bot is a URL the engine POSTs to. Letting users name URLs that the server then calls is
a request-forgery risk: a bot at `http://169.254.169.254/` or `http://127.0.0.1:5432/` would make
the server talk to its own network. So remote bots are off unless the operator turns them on, only
the hosts the operator lists may be called, and an address that is loopback, private, link-local,
multicast or reserved is refused unless it lies in a network the operator allows explicitly. The
address is checked when the connection is made, on the address actually connected to (a name
that resolved to a public address when the bot was registered and to 127.0.0.1 later, DNS
rebinding, is refused then).

Settings (environment variables; the Django settings of the same names read them):
- `TRUCO_REMOTE_BOTS=1`: remote bots are allowed at all (default off);
- `TRUCO_REMOTE_BOT_HOSTS`: comma-separated host names that may be called: `bots.example.com`,
  `.example.com` (that domain and its subdomains) or `*` (any host with a public address);
- `TRUCO_REMOTE_BOT_NETWORKS`: comma-separated networks allowed although not public, e.g.
  `127.0.0.0/8` for a bot server on the same machine (tests, a local league).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from .errors import TrucoError

MAX_URL_LENGTH = 500
MAX_ANSWER_BYTES = 64 * 1024  # a decision is a few dozen bytes; anything this big is abuse

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class RemoteRefused(TrucoError):
    """A remote bot's URL or address that the server's policy does not allow; says why."""


@dataclass(frozen=True)
class RemotePolicy:
    enabled: bool = False
    hosts: tuple[str, ...] = ()
    networks: tuple[Network, ...] = ()
    max_answer_bytes: int = MAX_ANSWER_BYTES

    @classmethod
    def of(cls, enabled: bool, hosts: str | Iterable[str], networks: str | Iterable[str]):
        """From setting values: lists or comma-separated strings. A malformed network is an
        error at start-up, not a silently open door."""
        return cls(
            enabled=bool(enabled),
            hosts=tuple(h.lower().rstrip(".") for h in _items(hosts)),
            networks=tuple(_network(n) for n in _items(networks)),
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> RemotePolicy:
        env = os.environ if env is None else env
        return cls.of(
            env.get("TRUCO_REMOTE_BOTS", "").strip().lower() in ("1", "true", "yes", "on"),
            env.get("TRUCO_REMOTE_BOT_HOSTS", ""),
            env.get("TRUCO_REMOTE_BOT_NETWORKS", ""),
        )

    def host_allowed(self, host: str) -> bool:
        host = host.lower().rstrip(".")
        for allowed in self.hosts:
            if allowed == "*" or allowed == host:
                return True
            if allowed.startswith(".") and (host == allowed[1:] or host.endswith(allowed)):
                return True
        return False


def _items(value: str | Iterable[str]) -> list[str]:
    if isinstance(value, str):
        value = value.replace(" ", ",").split(",")
    return [item.strip() for item in value if item and item.strip()]


def _network(text: str) -> Network:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise ValueError(f"TRUCO_REMOTE_BOT_NETWORKS: {text!r} is not a network") from None


_configured: RemotePolicy | None = None


def configure(policy: RemotePolicy | None) -> None:
    """Set the process's policy (the Django app does, from its settings); None: read the
    environment again on each use (the command line)."""
    global _configured
    _configured = policy


def current_policy() -> RemotePolicy:
    return _configured if _configured is not None else RemotePolicy.from_env()


# --- the checks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect and what to ask for."""

    url: str
    scheme: str
    host: str
    port: int
    path: str  # with its query


def is_url(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def check_url(url: str, policy: RemotePolicy | None = None) -> Target:
    """The URL's target, or RemoteRefused with the reason. Names are resolved and their
    addresses checked again at each connection (`checked_addresses`)."""
    policy = policy or current_policy()
    if not policy.enabled:
        raise RemoteRefused(
            "remote bots are off on this server (an operator turns them on with "
            "TRUCO_REMOTE_BOTS=1 and lists the hosts in TRUCO_REMOTE_BOT_HOSTS)"
        )
    if not isinstance(url, str) or not url:
        raise RemoteRefused("a remote bot needs a URL")
    if len(url) > MAX_URL_LENGTH:
        raise RemoteRefused(f"a remote bot's URL has at most {MAX_URL_LENGTH} characters")
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise RemoteRefused("a remote bot's URL may not contain spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise RemoteRefused(f"not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise RemoteRefused("a remote bot's URL starts with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise RemoteRefused("a remote bot's URL may not hold a user name or password")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise RemoteRefused("a remote bot's URL names no host")
    if not policy.host_allowed(host):
        raise RemoteRefused(
            f"the host {host!r} is not one this server calls remote bots on "
            "(the operator lists them in TRUCO_REMOTE_BOT_HOSTS)"
        )
    literal = _literal_address(host)
    if literal is not None:
        check_address(literal, host, policy)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(
        url=url,
        scheme=parts.scheme,
        host=host,
        port=port or (443 if parts.scheme == "https" else 80),
        path=path,
    )


def _literal_address(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def address_kind(address: Address) -> str | None:
    """Why an address is not public ("loopback", "private", ...), or None for a public one."""
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:  # ::ffff:127.0.0.1 is 127.0.0.1
        address = mapped
    for kind in ("loopback", "link_local", "private", "multicast", "reserved", "unspecified"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return None if address.is_global else "not public"


def check_address(address: Address, host: str, policy: RemotePolicy) -> None:
    mapped = getattr(address, "ipv4_mapped", None) or address
    if any(mapped in network for network in policy.networks):
        return
    kind = address_kind(address)
    if kind is not None:
        raise RemoteRefused(
            f"{host!r} is at {address}, a {kind} address: remote bots may not reach the "
            "server's own network (an operator may allow a network in TRUCO_REMOTE_BOT_NETWORKS)"
        )


# Lookups still running after their deadline, at most: a bot whose name server never answers
# holds one thread each until the system's resolver gives up, and no more than this many.
MAX_PENDING_LOOKUPS = 16
_pending_lookups = threading.BoundedSemaphore(MAX_PENDING_LOOKUPS)


def resolve(host: str, port: int, timeout: float | None) -> list[tuple]:
    """getaddrinfo within `timeout` seconds (None: as long as the resolver takes). The lookup
    runs in a daemon thread, the one way to bound the C library's resolver: a slow name server
    (a remote bot's own, say) costs the bot its deadline, never the worker more than that."""
    if timeout is None:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    if not _pending_lookups.acquire(blocking=False):
        raise TimeoutError(f"resolving {host!r}: too many lookups are already waiting")
    outcome: dict[str, object] = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            outcome["found"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except BaseException as exc:  # handed to the caller
            outcome["error"] = exc
        finally:
            done.set()
            _pending_lookups.release()

    threading.Thread(target=lookup, name=f"resolve {host}", daemon=True).start()
    if not done.wait(timeout):
        raise TimeoutError(f"resolving {host!r} took more than {timeout:g}s")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["found"]  # type: ignore[return-value]


def checked_addresses(
    target: Target, policy: RemotePolicy, timeout: float | None = None
) -> list[tuple]:
    """The (family, sockaddr) pairs the target's host resolves to now (within `timeout`
    seconds), every one of them allowed; RemoteRefused if any is not (a name that resolves to a
    public address and a private one is refused whole: there is no telling which one the next
    lookup returns)."""
    try:
        found = resolve(target.host, target.port, timeout)
    except (socket.gaierror, UnicodeError) as exc:
        raise RemoteRefused(f"cannot resolve {target.host!r}: {exc}") from None
    out = []
    for family, _, _, _, sockaddr in found:
        address = ipaddress.ip_address(sockaddr[0].split("%", 1)[0])
        check_address(address, target.host, policy)
        out.append((family, sockaddr))
    if not out:
        raise RemoteRefused(f"{target.host!r} has no address")
    return out


def connect_checked(target: Target, policy: RemotePolicy, timeout: float) -> socket.socket:
    """A TCP connection to one of the host's checked addresses (never a second lookup between
    the check and the connection)."""
    last: OSError | None = None
    for family, sockaddr in checked_addresses(target, policy, timeout):
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(sockaddr)
        except OSError as exc:
            sock.close()
            last = exc
            continue
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock
    raise last or OSError(f"cannot connect to {target.host!r}")
