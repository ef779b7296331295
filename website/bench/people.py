"""Simulated people for the load benchmark (`manage.py bench_play`): each its own user, each at
its own quick table against one bot, playing whole games as a person would, thinking a while
before each decision, through the push channel (a WebSocket: states pushed, decisions sent on
it) or through the REST API (decisions posted; while the robots think, the state asked with
`?wait=` as docs/api-and-play.md tells scripts to, or polled).

What is measured, per person and decision: from the moment the decision is sent to the moment
the person sees their next decision (or the end of the game): the bots' replies, the server's
work and the push or the polling included.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import websockets

# Not a header of the server's: when the benchmark's HTTP thread sent the request.
CLIENT_SENT = "Bench-Client-Sent"
POLL_SECONDS = 0.05  # a REST person looks again this often while the robots think (no wait)


@dataclass
class Person:
    name: str
    token: str
    session_cookie: str


@dataclass
class PeopleTable:
    """Two people at a table for people (`--bot people`): the first opens it and deals once the
    second sits. Their latency is the table's: from a decision to the moment whoever decides
    next (the other person, or the same one) sees it, as each page is pushed the table."""

    match: asyncio.Future = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    seated: asyncio.Event = field(default_factory=asyncio.Event)
    dealt: asyncio.Event = field(default_factory=asyncio.Event)
    sent: float | None = None  # time.monotonic() of the last decision not yet seen

    def decided(self) -> None:
        self.sent = time.monotonic()

    def seen(self, tally: Tally) -> None:
        if self.sent is not None:
            tally.took(self.sent)
            self.sent = None


@dataclass
class Tally:
    """What all the people saw."""

    latencies: list[float] = field(default_factory=list)  # seconds, decision -> next decision
    # When each latency was measured (time.monotonic()), and when each person first acted:
    # the figures once everyone plays, apart from the minute when everyone sits down at once.
    measured_at: list[float] = field(default_factory=list)
    first_acts: list[float] = field(default_factory=list)
    games_ended: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    meters: dict[str, list[dict]] = field(default_factory=dict)  # kind -> [{queries, server_ms}]
    # Where each push decision's time went, ms by stage (STAGES), from the host's stamps.
    stages: list[dict[str, float]] = field(default_factory=list)
    # Spectators of the people's tables (signed out, a WebSocket each): states each received,
    # how many saw their table's game end, what went wrong.
    watched: list[int] = field(default_factory=list)
    watchers_saw_end: int = 0
    watcher_errors: list[str] = field(default_factory=list)

    def took(self, sent_at: float) -> None:
        now = time.monotonic()
        self.latencies.append(now - sent_at)
        self.measured_at.append(now)

    def once_everyone_plays(self) -> list[float]:
        """The latencies measured after every person's first decision."""
        since = max(self.first_acts, default=0.0)
        return [s for s, at in zip(self.latencies, self.measured_at, strict=True) if at > since]

    def staged(
        self,
        sent: float,
        seen: float,
        meter: dict,
        at: float | None = None,
        web_start: float | None = None,
        client_sent: float | None = None,
    ) -> None:
        """A push decision's stages: sent by the person at `sent`, its next decision seen at
        `seen` (time.time(), this machine's clock, as the servers' stamps), `meter` the host's
        (stamps, spent_ms, server_ms), `at` when the ASGI server had the state to send;
        `web_start` when the web server began a REST request (its thread's wait, and then its
        own work before the host, are stages apart); `client_sent` when the benchmark's HTTP
        thread began sending it (the wait for one of those threads in this process, a hundred
        people's clients in one Python process, is a stage apart too)."""
        stamps = meter.get("stamps") or {}
        spent = meter.get("spent_ms") or {}
        if not all(k in stamps for k in ("received", "heard", "started", "pushed")):
            return
        ms = {k: 1000 * v for k, v in stamps.items()}
        # When the server had the state to send: the ASGI server's stamp (push), or the host's
        # answer to the web server's request (REST, which answers with the state).
        ms["at"] = 1000 * at if at is not None else ms.get("answered", ms["pushed"])
        instant = spent.get("instant_bot", 0.0)
        bot = spent.get("bot", 0.0) + instant
        server = float(meter.get("server_ms") or 0) - instant
        held = ms["pushed"] - ms["started"]
        if web_start is None:
            reached = {"to the server": ms["received"] - 1000 * sent}
        else:
            reached = {
                "to the web server's thread": 1000 * (web_start - sent),
                "the request before the host": ms["received"] - 1000 * web_start,
            }
            if client_sent is not None:
                reached = {
                    "in the people's client": 1000 * (client_sent - sent),
                    "to the web server's thread": 1000 * (web_start - client_sent),
                    "the request before the host": reached["the request before the host"],
                }
        self.stages.append(
            {
                **reached,
                "to the table host": ms["heard"] - ms["received"],
                "waiting for the table": ms["started"] - ms["heard"],
                "server work (SQL, render)": server,
                "bot reply": bot,
                "host hops (threads, loop)": max(0.0, held - server - bot),
                "back to the server": ms["at"] - ms["pushed"],
                "to the person": 1000 * seen - ms["at"],
                "total": 1000 * (seen - sent),
            }
        )

    def meter(self, kind: str, queries: Any, server_ms: Any) -> None:
        if queries is not None:
            self.meters.setdefault(kind, []).append(
                {"queries": int(queries), "server_ms": float(server_ms or 0)}
            )


class Http:
    """Blocking HTTP in a thread pool: the REST API as a script would use it."""

    def __init__(self, base: str, threads: int):
        self.base = base
        self.pool = ThreadPoolExecutor(max_workers=threads)

    def _call(self, method: str, path: str, token: str, body: Any = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if token is not None:  # else anonymous, as someone who follows a page
            request.add_header("Authorization", f"Token {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        sent = time.time()  # this thread's start: the stages tell the client's wait apart
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, body, headers = (
                    answer.status,
                    json.loads(answer.read() or b"null"),
                    headers_of(answer.headers),
                )
        except urllib.error.HTTPError as exc:
            status, body, headers = exc.code, _json_or_text(exc.read()), headers_of(exc.headers)
        headers[CLIENT_SENT] = f"{sent:.6f}"
        return status, body, headers

    async def call(self, method: str, path: str, token: str, body: Any = None):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, self._call, method, path, token, body)


def headers_of(headers) -> dict[str, str]:
    """An answer's headers by their usual names: uvicorn sends them in lower case (x-queries),
    which a plain dict of them did not find under X-Queries (the REST meters were never read)."""
    return {"-".join(w.capitalize() for w in k.split("-")): v for k, v in headers.items()}


def _json_or_text(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")[:300]


def choose(state: dict, rng: random.Random) -> tuple[str, int] | None:
    """A legal action of the person's seat to act (cards more often than bets)."""
    seat = state.get("to_act")
    observation = (state.get("observations") or {}).get(str(seat))
    if not state.get("your_turn") or observation is None:
        return None
    legal = observation["legal"]
    cards = [a for a in legal if a.startswith("play ")]
    return (rng.choice(cards) if cards and rng.random() < 0.8 else rng.choice(legal)), seat


async def think(seconds: float, rng: random.Random) -> None:
    if seconds > 0:
        await asyncio.sleep(rng.uniform(0.5 * seconds, 1.5 * seconds))


async def play_over_push(
    http: Http,
    ws_base: str,
    origin: str,
    person: Person,
    table: dict,
    seconds: float,
    tally: Tally,
    rng: random.Random,
    deadline: float,
    shared: PeopleTable | None = None,
) -> None:
    """`shared`: at a table of people, whose decisions are timed as the table's."""
    match = table["match"]
    headers = {"Cookie": f"sessionid={person.session_cookie}", "Origin": origin}
    async with websockets.connect(
        f"{ws_base}/ws/play/matches/{match}/",
        additional_headers=headers,
        open_timeout=30,
        max_size=2**22,
    ) as socket:
        sent_at = None
        sent_wall = 0.0
        staged: dict[str, Any] = {}  # this decision's: the moment seen, the host's meter
        acted_turn = None
        last_act = None
        retries = 0
        first = True
        while time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(socket.recv(), deadline - time.monotonic()))
            kind = message.get("type")
            if kind == "error":
                tally.errors.append(f"{person.name}: {message.get('detail')}")
                if last_act is None or retries >= 3:
                    return
                retries += 1  # as a person would: the same decision again, a moment later
                await asyncio.sleep(0.3)
                await socket.send(last_act)
                continue
            if kind == "acted":
                meter = message.get("meter") or {}
                tally.meter("push act", meter.get("queries"), meter.get("server_ms"))
                staged["meter"] = meter  # before or after the state: its own channel
                if "seen" in staged and shared is None:
                    tally.staged(staged["sent"], staged["seen"], meter, staged.get("at"))
                continue
            if kind != "state":
                continue
            state = message["state"]
            over = state["status"] in ("done", "cancelled")
            fresh = state.get("your_turn") and state.get("turn") != acted_turn
            if shared is not None and (over or fresh):
                shared.seen(tally)
            if sent_at is not None and (over or fresh):
                if shared is None:
                    tally.took(sent_at)
                    staged["seen"] = time.time()
                    staged["at"] = message.get("at")
                    if "meter" in staged:
                        tally.staged(staged["sent"], staged["seen"], staged["meter"], staged["at"])
                sent_at = None
            if over:
                tally.games_ended += state["status"] == "done"
                return
            if not fresh or sent_at is not None:
                continue
            decision = choose(state, rng)
            if decision is None:
                continue
            await think(seconds, rng)
            action, seat = decision
            acted_turn = state.get("turn")
            sent_at = time.monotonic()
            sent_wall = time.time()
            staged = {"sent": sent_wall}
            last_act = json.dumps(
                {"type": "act", "action": action, "seat": seat, "turn": acted_turn}
            )
            retries = 0
            if shared is not None:
                shared.decided()
            await socket.send(last_act)
            tally.actions += 1
            if first:
                tally.first_acts.append(sent_at)
                first = False
    tally.errors.append(f"{person.name}: the game did not end in time")


async def play_over_rest(
    http: Http,
    person: Person,
    table: dict,
    seconds: float,
    tally: Tally,
    rng: random.Random,
    deadline: float,
    wait: float = 0.0,
) -> None:
    """`wait`: seconds of `GET ?wait=` while the robots think (each request waits for them);
    0: a GET every POLL_SECONDS."""
    path = f"/api/play/matches/{table['match']}/"
    state = table
    first = True

    async def look() -> tuple[int, Any]:
        if wait:
            status, state, headers = await http.call("GET", f"{path}?wait={wait:g}", person.token)
            tally.meter("rest wait", headers.get("X-Queries"), headers.get("X-Server-Ms"))
        else:
            await asyncio.sleep(POLL_SECONDS)
            status, state, headers = await http.call("GET", path, person.token)
            tally.meter("rest state", headers.get("X-Queries"), headers.get("X-Server-Ms"))
        if status != 200:
            tally.errors.append(f"{person.name}: GET {status} {state}")
        return status, state

    while time.monotonic() < deadline:
        if state["status"] in ("done", "cancelled"):
            tally.games_ended += state["status"] == "done"
            return
        decision = choose(state, rng)
        if decision is None:
            status, state = await look()
            if status != 200:
                return
            continue
        await think(seconds, rng)
        action, seat = decision
        turn = state.get("turn")
        sent_at = time.monotonic()
        sent_wall = time.time()
        status, answer, headers = await http.call(
            "POST", path + "act/", person.token, {"action": action, "seat": seat, "turn": turn}
        )
        tally.meter("rest act", headers.get("X-Queries"), headers.get("X-Server-Ms"))
        answered_at = time.time()
        tally.actions += 1
        if first:
            tally.first_acts.append(sent_at)
            first = False
        if status != 200:
            tally.errors.append(f"{person.name}: act {status} {answer}")
            return
        state = answer
        if headers.get("X-Table-Meter") and (
            state["status"] in ("done", "cancelled")
            or (state.get("your_turn") and state.get("turn") != turn)
        ):  # the act's answer is the next decision: its stages, from the host's stamps
            start = headers.get("X-Server-Start")
            tally.staged(
                sent_wall,
                answered_at,
                json.loads(headers["X-Table-Meter"]),
                web_start=float(start) if start else None,
                client_sent=float(headers[CLIENT_SENT]),
            )
        while time.monotonic() < deadline:
            if state["status"] in ("done", "cancelled") or (
                state.get("your_turn") and state.get("turn") != turn
            ):
                tally.took(sent_at)
                break
            status, state = await look()
            if status != 200:
                return
    tally.errors.append(f"{person.name}: the game did not end in time")


async def watch_table(ws_base: str, origin: str, match: int, tally: Tally, deadline: float):
    """A signed-out spectator of table `match`: the states pushed to it until the game ends."""
    seen = 0
    try:
        async with websockets.connect(
            f"{ws_base}/ws/play/matches/{match}/",
            additional_headers={"Origin": origin},
            open_timeout=30,
            max_size=2**22,
        ) as socket:
            while time.monotonic() < deadline:
                left = deadline - time.monotonic()
                message = json.loads(await asyncio.wait_for(socket.recv(), left))
                if message.get("type") == "error":
                    tally.watcher_errors.append(str(message.get("detail"))[:200])
                if message.get("type") != "state":
                    continue
                seen += 1
                if message["state"]["status"] in ("done", "cancelled"):
                    tally.watchers_saw_end += 1
                    return
    except asyncio.CancelledError:
        raise
    except TimeoutError:
        pass
    except Exception as exc:  # one spectator's failure is counted, the others go on
        tally.watcher_errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        tally.watched.append(seen)


async def one_person(
    http: Http,
    ws_base: str,
    origin: str,
    person: Person,
    quick: dict,
    transport: str,
    seconds: float,
    tally: Tally,
    seed: int,
    deadline: float,
    rest_wait: float = 0.0,
    watchers: int = 0,
    shared: PeopleTable | None = None,
    deals: bool = False,
) -> None:
    """`shared`: a table of people this person opens and `deals` (after the other sat), or
    sits at."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, 2.0))  # people do not all arrive in one millisecond
    watching: list[asyncio.Task] = []
    try:
        if shared is not None and not deals:
            table = await sit_then_wait_for_the_deal(http, person, shared, tally, deadline)
        else:
            status, table, headers = await http.call(
                "POST", "/api/play/quick/", person.token, quick
            )
            tally.meter("rest quick", headers.get("X-Queries"), headers.get("X-Server-Ms"))
            if status != 201:
                tally.errors.append(f"{person.name}: quick {status} {table}")
                return
            if shared is not None:
                table = await deal_once_seated(http, person, table, shared, tally, deadline)
        if table is None:
            return
        watching = [
            asyncio.ensure_future(watch_table(ws_base, origin, table["match"], tally, deadline))
            for _ in range(watchers)
        ]
        if transport == "push":
            await play_over_push(
                http, ws_base, origin, person, table, seconds, tally, rng, deadline, shared
            )
        else:
            await play_over_rest(http, person, table, seconds, tally, rng, deadline, rest_wait)
    except Exception as exc:  # a person's failure is counted, the others go on
        tally.errors.append(f"{person.name}: {type(exc).__name__}: {exc}")
    finally:
        if watching:  # a moment for the spectators to see the end, then they leave
            await asyncio.wait(watching, timeout=5)
            for task in watching:
                task.cancel()
            await asyncio.gather(*watching, return_exceptions=True)


async def deal_once_seated(
    http: Http, person: Person, table: dict, shared: PeopleTable, tally: Tally, deadline: float
) -> dict | None:
    """The table's opener: its match for the other person, then the deal once they sit."""
    shared.match.set_result(table["match"])
    try:
        await asyncio.wait_for(shared.seated.wait(), deadline - time.monotonic())
    except TimeoutError:
        tally.errors.append(f"{person.name}: nobody sat at the table")
        return None
    path = f"/api/play/matches/{table['match']}/open/"
    status, dealt, headers = await http.call("POST", path, person.token)
    tally.meter("rest open (deal)", headers.get("X-Queries"), headers.get("X-Server-Ms"))
    if status != 200:
        tally.errors.append(f"{person.name}: open {status} {dealt}")
        return None
    shared.dealt.set()
    return dealt


async def sit_then_wait_for_the_deal(
    http: Http, person: Person, shared: PeopleTable, tally: Tally, deadline: float
) -> dict | None:
    """The other person: sits at the opener's table, then waits for the deal."""
    try:
        match = await asyncio.wait_for(shared.match, deadline - time.monotonic())
    except TimeoutError:
        tally.errors.append(f"{person.name}: no table was opened for them")
        return None
    status, seated, headers = await http.call(
        "POST", f"/api/play/matches/{match}/sit/", person.token, {}
    )
    tally.meter("rest sit", headers.get("X-Queries"), headers.get("X-Server-Ms"))
    if status != 200:
        tally.errors.append(f"{person.name}: sit {status} {seated}")
        return None
    shared.seated.set()
    try:
        await asyncio.wait_for(shared.dealt.wait(), deadline - time.monotonic())
    except TimeoutError:
        tally.errors.append(f"{person.name}: the table was never dealt")
        return None
    return seated


async def crowd(
    base: str,
    ws_base: str,
    people: list[Person],
    quick: dict,
    transport: str,
    seconds: float,
    limit_seconds: float,
    rest_wait: float = 0.0,
    watchers: int = 0,
    people_tables: bool = False,
) -> tuple[Tally, float]:
    """`people_tables`: the people play each other, two at a table (the first of each pair
    opens it), instead of each against a bot."""
    http = Http(base, threads=min(200, max(8, len(people))))
    tally = Tally()
    start = time.monotonic()
    deadline = start + limit_seconds
    origin = base
    tables = [PeopleTable() for _ in range(len(people) // 2)] if people_tables else []
    await asyncio.gather(
        *(
            one_person(
                http,
                ws_base,
                origin,
                p,
                quick,
                transport,
                seconds,
                tally,
                i,
                deadline,
                rest_wait,
                watchers,
                shared=tables[i // 2] if tables else None,
                deals=i % 2 == 0,
            )
            for i, p in enumerate(people)
        )
    )
    http.pool.shutdown(wait=False)
    return tally, time.monotonic() - start
