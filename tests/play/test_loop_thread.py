"""Synchronous code (a REST request in gunicorn's threads) reaches the table hosts through one
event loop a process (tables/loop_thread.py), on the real Redis with the pub/sub channel layer.

`async_to_sync` made a new event loop for every request, and channels_redis keeps its Redis
connections per loop: each REST action to a table opened a connection and subscribed anew, and
with 100 people playing through the API an action took 230 ms of server time at p50.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading

import pytest
import redis
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers, get_channel_layer

from tables import loop_thread, routing
from tests.e2e_support import TEST_REDIS_URL, ping_redis, require_service

MATCH = 4242


LAYERS = {
    "pubsub": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [TEST_REDIS_URL]},
    },
    # The socket timeout of config/settings.py: redis-py's default 5 s equals the layer's
    # blocking pop, and a quiet channel's read timed out.
    "core": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": TEST_REDIS_URL, "socket_timeout": 30}]},
    },
}


@pytest.fixture(params=sorted(LAYERS))
def redis_layer(request, settings):
    """Each of channels_redis' layers (TRUCO_CHANNEL_LAYER): the core one refuses two event
    loops of one process reading at once, which a loop a request did."""
    require_service("Redis", ping_redis)
    settings.CHANNEL_LAYERS = {"default": LAYERS[request.param]}
    yield get_channel_layer()
    # The process's loop would read this layer's reply channel for the rest of the run: its
    # errors, logged from a thread while the main one parses Python, once broke CPython
    # 3.11's ast (a "recursion depth mismatch" in another test).
    loop_thread.stop()


class StandInHost(threading.Thread):
    """A table host that answers each command with how many it heard."""

    def __init__(self, layer, ready=None):
        super().__init__(daemon=True)
        self.layer = layer
        self.ready = ready
        self.heard = 0

    def run(self):
        asyncio.run(self.serve())

    async def serve(self):
        channel = await self.layer.new_channel()
        await self.layer.group_add(routing.table_group(MATCH), channel)
        if self.ready is not None:
            self.ready.set()
        while True:
            message = await self.layer.receive(channel)
            self.heard += 1
            answer = {"type": "table.reply", "heard": self.heard, "id": message["id"]}
            await self.layer.send(message["reply"], answer)


def connections_received() -> int:
    client = redis.Redis.from_url(TEST_REDIS_URL)
    try:
        return int(client.info("stats")["total_connections_received"])
    finally:
        client.close()


def host_elsewhere() -> multiprocessing.Process:
    """The stand-in host in a process of its own, as table hosts are."""

    forking = multiprocessing.get_context("fork")
    ready = forking.Event()

    def serve():  # a layer of its own, as a host's process has (not the parent's, forked)
        StandInHost(channel_layers.make_backend(DEFAULT_CHANNEL_LAYER), ready).run()

    process = forking.Process(target=serve, daemon=True)
    process.start()
    assert ready.wait(10), "the stand-in host did not start"
    return process


def test_requests_from_threads_share_one_loop_and_its_redis_connections(redis_layer, monkeypatch):
    async def held(match_id):  # it holds the table (asked without the database)
        return True

    monkeypatch.setattr(routing, "held_by_a_host_async", held)
    host = host_elsewhere()
    answers: list[int] = []
    failures: list[BaseException] = []

    def request(count: int):  # a gunicorn thread serving `count` requests, one after another
        try:
            for _ in range(count):
                answers.append(routing.ask(MATCH, "state")["heard"])
        except BaseException as exc:  # noqa: BLE001 - the test reports it below
            failures.append(exc)

    try:
        request(1)  # the process's loop and its connections, once
        before = connections_received()
        threads = [threading.Thread(target=request, args=(10,)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        opened = connections_received() - before
    finally:
        host.terminate()
    assert failures == []
    assert sorted(answers) == list(range(1, 42))  # every request answered, once each
    assert opened <= 4, f"{opened} Redis connections opened for 40 requests"
    assert loop_thread.process_loop() is loop_thread.process_loop()


def test_a_forked_process_starts_a_loop_of_its_own():
    """gunicorn forks its workers: a child has the parent's module state but not its thread."""
    parent = loop_thread.process_loop()
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a loop of its own that runs
        try:
            child = loop_thread.process_loop()
            ran = asyncio.run_coroutine_threadsafe(asyncio.sleep(0, "ran"), child).result(5)
            os.write(writing, b"new" if child is not parent and ran == "ran" else b"same")
        finally:
            os._exit(0)
    os.close(writing)
    said = os.read(reading, 10)
    os.waitpid(pid, 0)
    assert said == b"new"


def test_stopping_the_loop_ends_its_thread_and_the_next_call_starts_another():
    first = loop_thread.process_loop()
    loop_thread.stop()
    assert first.is_closed()
    assert not any(t.name == "table calls" and t.is_alive() for t in threading.enumerate())
    second = loop_thread.process_loop()
    assert second is not first
    assert asyncio.run_coroutine_threadsafe(asyncio.sleep(0, "ran"), second).result(5) == "ran"
    loop_thread.stop()
