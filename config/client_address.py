"""The address a request comes from, as the rules that count addresses need it (the login
lockout, the API's rates, the tables' shared-address rule): the peer's own address, unless
the peer is one of TRUCO_TRUSTED_PROXIES (the site's reverse proxy), whose X-Forwarded-For
then names the client.

X-Forwarded-For is anyone's to write: read from an untrusted peer, it let one address try
passwords under a new made-up address each time; ignored behind a proxy, every visitor had the
proxy's address (one lockout for everybody, every pair of players "sharing" an address). So it
is read only from a trusted peer, right to left, skipping the trusted hops: the first address
not trusted is the client (whatever the client itself put further left is not looked at).

`ClientAddressMiddleware` (first in MIDDLEWARE) puts the client's address in REMOTE_ADDR, so
that Django, django-axes (AXES_CLIENT_IP_CALLABLE is `client_address`) and DRF's throttles
(NUM_PROXIES = 0: REMOTE_ADDR only) all count the same address; the peer's stays in
TRUCO_PEER_ADDR."""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
RESOLVED = "TRUCO_CLIENT_ADDR"
PEER = "TRUCO_PEER_ADDR"


def parse_trusted_proxies(text: str) -> list[str]:
    """`10.0.0.5, 172.30.57.0/24` -> the addresses and networks, checked (for the settings)."""
    entries = [item.strip() for item in text.split(",") if item.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"TRUCO_TRUSTED_PROXIES: {entry!r} is not an IP address or network "
                "(write addresses or CIDRs separated by commas, e.g. 172.30.57.10,10.0.0.0/8)"
            ) from None
    return entries


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def trusted_networks() -> tuple[Network, ...]:
    return _networks(tuple(getattr(settings, "TRUCO_TRUSTED_PROXIES", ())))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:10.0.0.5 is 10.0.0.5
    return mapped or address


def _trusted(address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def resolve(peer: str, forwarded_for: str | None, networks: tuple[Network, ...]) -> str:
    """The client's address: `peer`, or, if `peer` is a trusted proxy, the right-most address
    of `forwarded_for` that is not a trusted proxy (the last valid one reached if all are)."""
    address = _address(peer)
    if address is None or not _trusted(address, networks) or not forwarded_for:
        return peer
    client = peer
    for hop in reversed(forwarded_for.split(",")):
        found = _address(hop)
        if found is None:
            break  # a hop the proxies did not write: stop at the last one they did
        client = str(found)
        if not _trusted(found, networks):
            break
    return client


def client_address(request) -> str | None:
    """The address of the client of `request` (also django-axes' AXES_CLIENT_IP_CALLABLE)."""
    meta = request.META
    if RESOLVED not in meta:
        peer = meta.get("REMOTE_ADDR", "")
        meta[PEER] = peer
        meta[RESOLVED] = resolve(peer, meta.get("HTTP_X_FORWARDED_FOR"), trusted_networks())
    return meta[RESOLVED] or None


class ClientAddressMiddleware:
    """REMOTE_ADDR becomes the client's address (see the module): first in MIDDLEWARE."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        address = client_address(request)
        if address:
            request.META["REMOTE_ADDR"] = address
        return self.get_response(request)
