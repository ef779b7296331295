"""Remote bots in the engine: a bot that is a URL plays whole games over HTTP, and everything a
hostile or broken bot server can do ends in the engine's typed terminations; URLs into the
server's own network are refused unless the operator allows them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from engine.match import MatchSpec, play_match
from engine.remote_policy import RemotePolicy, RemoteRefused, check_url
from engine.runner import BotSpec, play_game

from .conftest import LOOPBACK_ALLOWED

PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one_game(url: str, decision_seconds: float = 2.0):
    return play_game("paulista", [url, "random"], seed=3, decision_seconds=decision_seconds)


def test_a_remote_bot_plays_a_match_over_one_connection_per_seat_and_match(
    loopback_allowed, bot_server
):
    server = bot_server("good")
    result = play_match(
        MatchSpec("paulista", server.url, "random", games=2, seed=5, decision_seconds=2)
    )
    assert result.terminations == {"normal": 2}
    kinds = [m["type"] for m in server.messages]
    assert kinds[0] == "match" and kinds[-1] == "match_end"
    assert kinds.count("match") == 1 and kinds.count("game") == kinds.count("game_end") == 2
    act = next(m for m in server.messages if m["type"] == "act")
    assert act["legal"] and act["observation"]["legal"] == act["legal"]
    # Keep-alive: every message of the match went over the seat's one connection.
    assert server.connections == 1 < len(server.messages)


def test_a_remote_bot_in_two_v_two_sits_at_its_two_seats(loopback_allowed, bot_server):
    server = bot_server("good")
    result = play_match(MatchSpec("paulista", server.url, "random", players=4, games=1, seed=2))
    assert result.terminations == {"normal": 1}
    assert {m["seat"] for m in server.messages if m["type"] == "game"} == {0, 2}
    assert server.connections == 2


def test_a_connection_the_server_closed_while_idle_is_reopened_and_the_game_goes_on(
    loopback_allowed, bot_server
):
    server = bot_server("drops-idle")
    result = play_match(MatchSpec("paulista", server.url, "random", games=1, seed=4))
    assert result.terminations == {"normal": 1}
    assert server.connections == len(server.messages) > 1  # a new one for every message


@pytest.mark.parametrize(
    ("mode", "termination", "detail"),
    [
        ("slow", "timeout", "second decision"),
        ("drip", "timeout", "second decision"),
        ("garbage", "illegal_action", "not JSON"),
        ("deep", "illegal_action", "not JSON"),
        ("not-a-string", "illegal_action", "not a string"),
        ("huge", "illegal_action", "more than 65536 bytes"),
        ("redirect", "crash", "redirect (307), which is never followed"),
        ("error", "crash", "HTTP 500"),
    ],
)
def test_a_misbehaving_bot_server_gets_its_typed_termination(
    loopback_allowed, bot_server, mode, termination, detail
):
    server = bot_server(mode, delay=0.6)
    started = time.monotonic()
    game = one_game(server.url, decision_seconds=0.3)
    assert game.termination == termination, game.detail
    assert game.seat == 0 and detail in game.detail
    # The deadline holds however the server answers: two decisions at most, 0.3 s each.
    assert time.monotonic() - started < 3
    if mode == "redirect":  # never followed: only the bot's own server was asked
        assert all("meta-data" not in str(m) for m in server.messages)


def test_a_bot_server_that_is_down_crashes_its_game_and_the_match_goes_on(loopback_allowed):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens there once closed
    result = play_match(
        MatchSpec("paulista", f"http://127.0.0.1:{port}/", "random", games=2, seed=1)
    )
    assert result.terminations == {"crash": 2}
    assert result.games[0].result.detail == "remote bot could not be reached"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:5432/",
        "http://10.1.2.3/bot",
        "http://169.254.169.254/latest/meta-data/",
        "http://192.168.0.10/",
        "http://[::1]:6379/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
    ],
)
def test_addresses_of_the_servers_own_network_are_refused_unless_allowed(url):
    policy = RemotePolicy.of(True, "*", "")
    with pytest.raises(RemoteRefused, match="may not reach the server's own network"):
        check_url(url, policy)


def test_a_name_is_checked_on_the_address_it_resolves_to_when_connecting(
    remote_policy_set, monkeypatch
):
    # DNS rebinding: the name passes the registration check (a name is not resolved then), and
    # at connection time it resolves to loopback: refused there, on the resolved address.
    remote_policy_set(RemotePolicy.of(True, "bots.example.test", ""))
    check_url("http://bots.example.test/bot")
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 80))],
    )
    game = one_game("http://bots.example.test/bot")
    assert game.termination == "crash"
    assert game.detail == "remote bot refused by the server's policy"
    assert "127.0.0.1, a loopback address" in game.fault_message  # for its owner


@pytest.mark.parametrize(
    ("policy", "url", "message"),
    [
        (RemotePolicy(), "https://bots.example.com/", "remote bots are off"),
        (RemotePolicy.of(True, "bots.example.com", ""), "https://evil.example.net/", "not one"),
        (RemotePolicy.of(True, "*", ""), "ftp://bots.example.com/", "http:// or https://"),
        (RemotePolicy.of(True, "*", ""), "http://user:pw@bots.example.com/", "user name"),
        (RemotePolicy.of(True, "*", ""), "http://bots.example.com:99999/", "not a valid URL"),
    ],
)
def test_urls_outside_the_policy_are_refused_with_the_reason(policy, url, message):
    with pytest.raises(RemoteRefused, match=message):
        check_url(url, policy)


def test_a_domain_entry_allows_its_subdomains_only():
    policy = RemotePolicy.of(True, ".example.com", "")
    assert policy.host_allowed("bots.example.com") and policy.host_allowed("example.com")
    assert not policy.host_allowed("example.com.evil.net")
    assert not policy.host_allowed("badexample.com")


def test_allowed_networks_open_loopback_explicitly():
    check_url("http://127.0.0.1:8000/bot", LOOPBACK_ALLOWED)
    with pytest.raises(RemoteRefused):
        check_url("http://10.0.0.1/", LOOPBACK_ALLOWED)  # listed host? no: and not allowed


def test_a_remote_spec_needs_its_url():
    assert BotSpec.of("https://bots.example.com/x").url == "https://bots.example.com/x"
    with pytest.raises(Exception, match="remote bot needs its url"):
        BotSpec("x", isolation="remote")


def cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=PROJECT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_cli_plays_a_remote_bot_when_the_operator_allows_it(bot_server):
    server = bot_server("good")
    allowed = {
        "TRUCO_REMOTE_BOTS": "1",
        "TRUCO_REMOTE_BOT_HOSTS": "127.0.0.1",
        "TRUCO_REMOTE_BOT_NETWORKS": "127.0.0.0/8",
    }
    done = cli("match", "--bots", server.url, "random", "--games", "2", env=allowed)
    assert done.returncode == 0, done.stderr
    assert "terminations: normal 2" in done.stdout
    arena = cli("arena", "--bots", server.url, "random", "--pairs", "1", env=allowed)
    assert arena.returncode == 0, arena.stderr

    refused = cli(
        "match",
        "--bots",
        server.url,
        "random",
        "--games",
        "1",
        env={"TRUCO_REMOTE_BOTS": "1", "TRUCO_REMOTE_BOT_HOSTS": "*"},
    )
    assert refused.returncode == 2
    assert "loopback address" in refused.stderr and "Traceback" not in refused.stderr
    off = cli("arena", "--bots", server.url, "random", env={"TRUCO_REMOTE_BOTS": ""})
    assert off.returncode == 2 and "remote bots are off" in off.stderr


def test_a_name_server_that_never_answers_costs_the_bot_its_deadline_not_the_worker(
    remote_policy_set, bot_server, monkeypatch
):
    """A remote bot's host name is looked up at each connection; a lookup that hangs (the
    bot's own slow name server) is abandoned at the deadline: the bot forfeits in about its
    decision time, and the game, the match and the worker go on."""
    import threading

    from engine import remote_policy

    server = bot_server("good")
    remote_policy_set(RemotePolicy.of(True, "bots.slow-dns.test", "127.0.0.0/8"))
    never = threading.Event()
    real = socket.getaddrinfo

    def hanging_lookup(host, port, *args, **kwargs):
        if host == "bots.slow-dns.test":
            never.wait(30)  # the test lets it go at the end
            return real("127.0.0.1", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(remote_policy.socket, "getaddrinfo", hanging_lookup)
    url = server.url.replace("127.0.0.1", "bots.slow-dns.test")
    try:
        started = time.monotonic()
        result = one_game(url, decision_seconds=0.5)
        elapsed = time.monotonic() - started
    finally:
        never.set()
    assert result.termination == "crash" and result.seat % 2 == 0
    assert result.detail == "remote bot did not take a message in time"
    assert "within 0.5s" in result.fault_message
    assert elapsed < 5, f"the game took {elapsed:.1f}s behind a hanging lookup"
