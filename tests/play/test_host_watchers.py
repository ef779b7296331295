"""Who watches a table, as its host counts them (tables/host.py): a host that takes a table over
asks every connection of the table to watch again (the dead host's count is gone with it), so a
connection that says it watches twice is one watcher, and a connection that watched another
host leaves this one's count alone. Else a person with one page open counted as two would never
be taken for away, and one counted as none would be played for while there."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from tables import routing
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


def test_a_connection_not_heard_from_for_the_lapse_is_forgotten_one_that_renews_is_kept():
    """An ASGI server that dies says nothing of its connections: counted on, a person who had
    gone was never taken for away, and a table over was never let go."""
    host, held = RenderlessHost("host-test", threads=1), Held(3)
    scene(host, held, ("watch", watch("gone")), ("watch", watch("here", 8)))
    host = RenderlessHost("host-test", threads=1)
    scene(host, held, ("still", watch("here", 8)), ("still", watch("never-watched", 9)))
    assert set(held.watchers) == {"gone", "here"}  # a renewal never makes a watcher
    later = held.watchers["here"].heard + routing.WATCH_LAPSE_SECONDS - 1
    held.watchers["gone"].heard -= 2  # not heard from since: past the lapse at `later`
    host.forget_lapsed_watchers(held, later)
    assert set(held.watchers) == {"here"}
    assert held.views == {("p8", "en"): 1} and dict(held.connected) == {8: 1}
    host.pool.shutdown(wait=False)


def test_a_table_over_watched_only_by_a_dead_servers_connection_is_let_go():
    host = RenderlessHost("host-test", threads=1)
    host.idle = 0
    held = host.held[3] = Held(3, active=0.0)
    held.table = SimpleNamespace(game=None, stood_in=False)  # over: kept while watched
    dropped = []

    async def drop(match_id, *, release):
        dropped.append(match_id)

    host.drop = drop
    scene(host, held, ("watch", watch("page")))
    asyncio.run(host.tidy())
    assert dropped == []  # watched: kept
    held.watchers["page"].heard -= routing.WATCH_LAPSE_SECONDS + 1  # its server died since
    asyncio.run(host.tidy())
    assert dropped == [3] and not held.views and not held.connected
