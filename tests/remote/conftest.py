from __future__ import annotations

import pytest

from engine import remote_policy
from engine.remote_policy import RemotePolicy

from .botserver import BotServer

LOOPBACK_ALLOWED = RemotePolicy.of(True, "127.0.0.1,localhost", "127.0.0.0/8")


@pytest.fixture
def remote_policy_set():
    """Sets the process's remote-bot policy for one test, and puts the previous one back."""
    before = remote_policy._configured

    def set_policy(policy: RemotePolicy) -> RemotePolicy:
        remote_policy.configure(policy)
        return policy

    yield set_policy
    remote_policy.configure(before)


@pytest.fixture
def loopback_allowed(remote_policy_set):
    """The operator's setting that lets the tests' bot server on 127.0.0.1 be called."""
    return remote_policy_set(LOOPBACK_ALLOWED)


@pytest.fixture
def bot_server():
    servers: list[BotServer] = []

    def start(mode: str = "good", **kwargs) -> BotServer:
        server = BotServer(mode, **kwargs).__enter__()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.__exit__(None, None, None)
