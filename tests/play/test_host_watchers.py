"""Who watches a table, as its host counts them (tables/host.py): a host that takes a table over
asks every connection of the table to watch again (the dead host's count is gone with it), so a
connection that says it watches twice is one watcher, and a connection that watched another
host leaves this one's count alone. Else a person with one page open counted as two would never
be taken for away, and one counted as none would be played for while there."""

from __future__ import annotations

import asyncio

from tables.host import Held, TableHost


class RenderlessHost(TableHost):
    def render(self, held, viewer, language):
        return {"viewer": viewer}


def watch(connection: str, player: int | None = 7) -> dict:
    viewer = f"p{player}" if player is not None else "public"
    return {"viewer": viewer, "language": "en", "player": player, "connection": connection}


def scene(host: TableHost, held: Held, *commands: tuple[str, dict]) -> None:
    async def run():
        for name, message in commands:
            await getattr(host, f"on_{name}")(held, message)

    try:
        asyncio.run(run())
    finally:
        host.pool.shutdown(wait=False)


def test_a_connection_told_to_watch_again_is_one_watcher():
    host, held = RenderlessHost("host-test", threads=1), Held(3)
    scene(host, held, ("watch", watch("c1")), ("watch", watch("c1")), ("watch", watch("c2")))
    assert held.views[("p7", "en")] == 2 and held.connected[7] == 2  # two pages, not three
    host = RenderlessHost("host-test", threads=1)
    scene(host, held, ("unwatch", watch("c1")), ("unwatch", watch("c1")))
    assert held.views[("p7", "en")] == 1 and held.connected[7] == 1  # c1 left once


def test_a_connection_that_watched_another_host_leaves_this_ones_count_alone():
    host, held = RenderlessHost("host-test", threads=1), Held(3)
    scene(host, held, ("watch", watch("c1")), ("unwatch", watch("elsewhere")))
    assert held.views[("p7", "en")] == 1 and held.connected[7] == 1
    host = RenderlessHost("host-test", threads=1)
    scene(host, held, ("unwatch", watch("c1")))
    assert ("p7", "en") not in held.views and 7 not in held.connected
