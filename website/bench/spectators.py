"""Simulated spectators for `manage.py bench_watch`: N WebSockets on one running bot match's
live view (`/ws/matches/<id>/watch/`, tournaments/watch.py), each noting when each view reached
it (the worker stamps each view when it writes it: tournaments/live_feed.py, `written`); and
N followers of the tournament's page, each asking for its standings and bracket every few
seconds as the page's script does (tournaments/static/tournaments/tournament.js)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

import websockets


@dataclass
class Watched:
    """What all the spectators saw."""

    lags: list[float] = field(default_factory=list)  # seconds, written -> reached a spectator
    views: list[int] = field(default_factory=list)  # views each spectator received
    written: set[int] = field(default_factory=set)  # the views' numbers seen by anyone
    ended: int = 0  # spectators told the match is over
    errors: list[str] = field(default_factory=list)
    # seconds, a follower's look (one request: live/)
    follows: list[float] = field(default_factory=list)
    follow_errors: list[str] = field(default_factory=list)


async def one_spectator(url: str, origin: str, watched: Watched, deadline: float) -> None:
    seen = 0
    try:
        async with websockets.connect(
            url, additional_headers={"Origin": origin}, open_timeout=30, max_size=2**22
        ) as socket:
            while time.monotonic() < deadline:
                left = deadline - time.monotonic()
                message = json.loads(await asyncio.wait_for(socket.recv(), left))
                if message.get("type") == "view":
                    live = message["live"]
                    if live.get("written") is not None:
                        watched.lags.append(time.time() - float(live["written"]))
                    watched.written.add(live["seq"])
                    seen += 1
                elif message.get("type") == "done":
                    watched.ended += 1
                    return
    except TimeoutError:
        pass  # the run's time is up
    except Exception as exc:  # one spectator's failure is counted, the others go on
        watched.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        watched.views.append(seen)


async def crowd(
    ws_base: str, origin: str, match_id: int, spectators: int, seconds: float
) -> Watched:
    watched = Watched()
    url = f"{ws_base}/ws/matches/{match_id}/watch/"
    deadline = time.monotonic() + seconds
    await asyncio.gather(
        *(one_spectator(url, origin, watched, deadline) for _ in range(spectators))
    )
    return watched


async def one_follower(
    http, tournament_id: int, watched: Watched, deadline: float, every: float, seed: int
) -> None:
    """The tournament's page open: its standings and bracket (`live/`, as the page asks) every
    `every` seconds, until the tournament is over (then the page stops asking) or the run's
    time is up."""
    await asyncio.sleep(random.Random(seed).uniform(0, every))  # not all in one millisecond
    url = f"/api/tournaments/{tournament_id}/live/"
    while time.monotonic() < deadline:
        start = time.monotonic()
        status, live, _ = await http.call("GET", url, None)
        watched.follows.append(time.monotonic() - start)
        if status != 200:
            watched.follow_errors.append(f"live {status}")
            return
        if live["standings"].get("status") not in ("running", "paused"):
            return
        await asyncio.sleep(every)


async def followers(
    base: str, tournament_id: int, count: int, seconds: float, every: float
) -> Watched:
    from website.bench.people import Http

    http = Http(base, threads=min(200, max(8, 2 * count)))
    watched = Watched()
    deadline = time.monotonic() + seconds
    await asyncio.gather(
        *(one_follower(http, tournament_id, watched, deadline, every, i) for i in range(count))
    )
    http.pool.shutdown(wait=False)
    return watched
