"""Issue 16, item 2: the client's address behind the reverse proxy. X-Forwarded-For is read only
from TRUCO_TRUSTED_PROXIES: from anyone else a forged one changes nothing (the attacker is
throttled and locked out as its real address), and through the proxy two clients are told
apart (a lockout or a rate is one client's, not everybody's; the tables' shared-address rule
sees each player's own address)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from config.client_address import parse_trusted_proxies, resolve, trusted_networks
from tables.models import Presence
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-123"  # tests.factories.UserFactory's
PROXY = "172.30.57.10"
ATTACKER = "203.0.113.66"


@pytest.fixture(autouse=True)
def behind_a_proxy(settings):
    settings.TRUCO_TRUSTED_PROXIES = [PROXY]


@pytest.fixture
def token_rate(monkeypatch):
    # DRF reads the rates once, at import: the test sets the class's copy.
    monkeypatch.setattr(
        "rest_framework.throttling.ScopedRateThrottle.THROTTLE_RATES", {"login": "5/minute"}
    )


def token(client: APIClient, username: str, password: str, forwarded_for: str | None = None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {}
    return client.post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", **extra
    )


def test_a_forged_forwarded_for_from_an_untrusted_address_is_throttled_as_its_real_address(
    token_rate,
):
    attacker = APIClient(REMOTE_ADDR=ATTACKER)
    codes = [token(attacker, f"nobody{i}", "x", f"198.51.100.{i}").status_code for i in range(8)]
    assert codes == [400] * 5 + [429] * 3  # a new made-up address each time did not help
    assert token(APIClient(REMOTE_ADDR="203.0.113.67"), "nobody", "x").status_code == 400


def test_a_forged_forwarded_for_from_an_untrusted_address_is_locked_out_as_its_real_address(
    settings,
):
    settings.AXES_FAILURE_LIMIT = 3
    victim = UserFactory()
    attacker = APIClient(REMOTE_ADDR=ATTACKER)
    codes = [
        token(attacker, victim.username, f"guess{i}", f"198.51.100.{i}").status_code
        for i in range(6)
    ]
    assert codes == [400] * 3 + [429] * 3
    assert token(attacker, victim.username, PASSWORD, "198.51.100.99").status_code == 429
    # The victim, from an address of their own, still logs in.
    assert token(APIClient(REMOTE_ADDR="198.51.100.2"), victim.username, PASSWORD).json()["token"]


def test_through_the_trusted_proxy_a_lockout_is_one_clients_not_everybodys(settings):
    settings.AXES_FAILURE_LIMIT = 3
    victim = UserFactory()
    proxy = APIClient(REMOTE_ADDR=PROXY)
    for i in range(5):
        token(proxy, victim.username, f"guess{i}", ATTACKER)
    assert token(proxy, victim.username, PASSWORD, ATTACKER).status_code == 429
    # The victim behind the same proxy (a client put its own guess further left: not read).
    welcome = token(proxy, victim.username, PASSWORD, f"{ATTACKER}, 198.51.100.2")
    assert welcome.status_code == 200 and welcome.json()["token"]


def test_through_the_trusted_proxy_each_client_has_its_own_rate(token_rate):
    proxy = APIClient(REMOTE_ADDR=PROXY)
    first = [token(proxy, f"a{i}", "x", "198.51.100.1").status_code for i in range(6)]
    assert first == [400] * 5 + [429]
    assert token(proxy, "b", "x", "198.51.100.2").status_code == 400  # another client


def test_the_tables_record_each_players_own_address_behind_the_proxy():
    """Behind the proxy every player had its address: all games "shared an address" (no
    ranking points, no chips); and a forged header from elsewhere hides nobody's address."""
    for peer, forwarded, seen in (
        (PROXY, "198.51.100.7", "198.51.100.7"),
        (ATTACKER, "198.51.100.8", ATTACKER),
    ):
        player = PlayerFactory()
        client = APIClient(REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)
        client.force_authenticate(player.user)
        opened = client.post("/api/play/quick/", {"variant": "paulista", "bot": "random"})
        assert opened.status_code == 201, opened.json()
        assert Presence.objects.get(player=player).ips == [seen]


@pytest.mark.parametrize(
    "peer, forwarded_for, client",
    [
        (PROXY, "198.51.100.7", "198.51.100.7"),
        (PROXY, "10.9.9.9, 198.51.100.7", "198.51.100.7"),  # the client's own hop is not read
        (PROXY, "198.51.100.7, 172.30.57.11", "198.51.100.7"),  # a second trusted proxy
        (PROXY, "not-an-address", PROXY),
        (PROXY, "198.51.100.7, garbage", PROXY),
        (PROXY, "", PROXY),
        ("::ffff:172.30.57.10", "198.51.100.7", "198.51.100.7"),
        (ATTACKER, "198.51.100.7", ATTACKER),
        ("2001:db8::1", "198.51.100.7", "2001:db8::1"),
    ],
)
def test_the_client_is_the_right_most_address_not_a_trusted_proxy(
    settings, peer, forwarded_for, client
):
    settings.TRUCO_TRUSTED_PROXIES = [PROXY, "172.30.57.11/32"]
    assert resolve(peer, forwarded_for, trusted_networks()) == client


def test_a_bad_trusted_proxy_setting_is_refused_with_its_entry():
    assert parse_trusted_proxies(" 10.0.0.1, 172.30.57.0/24 ,") == ["10.0.0.1", "172.30.57.0/24"]
    with pytest.raises(ImproperlyConfigured, match="'nginx' is not an IP address or network"):
        parse_trusted_proxies("10.0.0.1,nginx")
