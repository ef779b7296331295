"""The game session (engine/session.py): the one game loop, for bots and for people's seats."""

from __future__ import annotations

import copy
import random
import time

import pytest

from engine.bot import Bot
from engine.botseed import bot_seed
from engine.errors import IllegalAction
from engine.match import MatchSession, MatchSpec, play_match
from engine.plugins import registry
from engine.runner import BotSpec, play_game
from engine.session import (
    OVER,
    PAUSED,
    PERSON,
    WAITING,
    GameSession,
    GameSetup,
    NotYourTurn,
)
from engine.time_control import TimeControl, TimeControlError

SETUP = GameSetup("paulista", 2, seed=42)


class Counting(Bot):
    """Plays its first legal action and counts every decision it is asked, across instances."""

    asked = 0
    seeds: list[tuple[int, float]] = []

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        Counting.seeds.append((self.seat, self.rng.random()))

    def act(self, observation):
        Counting.asked += 1
        return observation.legal[0]


class Sleeper(Bot):
    """Thinks `seconds` (a parameter) before each decision."""

    parameters = ("seconds",)

    def act(self, observation):
        time.sleep(self.params["seconds"])
        return observation.legal[0]


class Remembering(Bot):
    """Keeps one instance for the whole match and counts the games it heard of."""

    match_memory = True
    instances = 0

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        Remembering.instances += 1
        self.games = 1

    def new_game(self, *, seat, rng):
        super().new_game(seat=seat, rng=rng)
        self.games += 1

    def act(self, observation):
        return self.rng.choice(observation.legal)


@pytest.fixture(autouse=True)
def test_bots(monkeypatch):
    bots = registry().bots
    for name, cls in (("counting", Counting), ("sleeper", Sleeper), ("remembering", Remembering)):
        monkeypatch.setitem(bots, name, cls)
    Counting.asked = 0
    Counting.seeds = []
    Remembering.instances = 0


def person_plays(session: GameSession, seat: int) -> None:
    session.act(seat, session.observation(seat).legal[-1])


def play_out(session: GameSession, person: int) -> None:
    while session.advance() == WAITING:
        person_plays(session, person)


# --- people's seats -------------------------------------------------------------------------


def test_a_person_seat_waits_and_the_bots_play_up_to_it():
    session = GameSession.start(SETUP, [PERSON, "random"])
    assert session.advance() == WAITING
    assert session.to_act == 0 and session.waiting_for_person
    assert all(seat == 1 for seat, _ in session.actions)  # nobody played for the person
    assert session.advance() == WAITING  # asking again changes nothing
    person_plays(session, 0)
    play_out(session, 0)
    assert session.over and session.outcome is not None
    assert session.outcome.termination == "normal"


def test_an_illegal_or_out_of_turn_action_changes_nothing():
    session = GameSession.start(SETUP, [PERSON, PERSON])
    seat = session.to_act
    other = 1 - seat
    before = (copy.deepcopy(session.record()), session.ply, session.state)
    with pytest.raises(NotYourTurn):
        session.act(other, "play " + session.observation(other).hand[0])
    with pytest.raises(IllegalAction) as refused:
        session.act(seat, "play 9z")
    assert "legal actions" in str(refused.value)
    with pytest.raises(IllegalAction):
        session.act(seat, ["not", "a", "string"])
    with pytest.raises(NotYourTurn):
        session.act(7, "truco")
    assert (session.record(), session.ply, session.state) == before


def test_a_person_cannot_act_for_a_bots_seat():
    session = GameSession.start(SETUP, ["random", "random"])
    seat = session.to_act
    with pytest.raises(NotYourTurn, match="bot"):
        session.act(seat, session.observation(seat).legal[0])
    assert session.ply == 0


def test_a_persons_time_running_out_plays_the_default_action_every_time():
    session = GameSession.start(SETUP, [PERSON, "random"])
    played = []
    while session.advance() == WAITING and len(played) < 3:
        expected = session.state.rules.default_action(session.state)
        played.append((session.time_out(), expected))
    assert len(played) == 3
    assert all(action == expected for action, expected in played)
    assert not session.over or session.outcome.termination == "normal"
    assert session.result()["timeouts"] == [0]  # listed once, however often


# --- bots' time -----------------------------------------------------------------------------


def test_a_slow_bot_is_played_for_once_and_forfeits_the_second_time():
    result = play_game(
        "paulista",
        [BotSpec("sleeper", {"seconds": 0.03}), "random"],
        seed=3,
        decision_seconds=0.01,
        notify=False,
    )
    assert result.termination == "timeout" and result.seat == 0
    assert result.winner == 1
    assert result.timeouts == [0]
    assert result.detail == "second decision over 0.01s"
    assert result.record["result"]["termination"] == "timeout"


def test_a_bot_timed_out_from_outside_is_played_for_then_forfeits():
    session = GameSession.start(SETUP, ["counting", PERSON])
    bot_timeouts = 0
    while not session.over:
        bot = session.to_act == 0
        played = session.time_out()
        bot_timeouts += bot
        assert (played is None) == (bot and bot_timeouts == 2)
    assert bot_timeouts == 2  # the person's time ran out as often as the bot's: no forfeit
    assert session.outcome.termination == "timeout" and session.outcome.seat == 0
    assert session.outcome.winner == 1
    assert Counting.asked == 0  # nobody asked the bot: its time was out


def test_an_empty_bank_loses_the_game_by_timeout_and_says_so():
    result = play_game(
        "paulista",
        [BotSpec("sleeper", {"seconds": 0.02}), "random"],
        seed=3,
        time_control="0.05+0",
        notify=False,
    )
    assert result.termination == "timeout" and result.seat == 0 and result.winner == 1
    assert "time bank" in result.detail and "0.05+0" in result.detail
    assert result.timeouts == []  # no decision was over a per-decision limit
    assert result.record["result"]["time_control"] == "0.05+0"


def test_the_increment_refills_the_bank():
    result = play_game(
        "paulista",
        [BotSpec("sleeper", {"seconds": 0.005}), "random"],
        seed=3,
        time_control="0.05+0.1",
        notify=False,
    )
    assert result.termination == "normal"


def test_a_time_control_is_read_from_its_text_and_bad_ones_are_refused():
    assert TimeControl.parse("60+0.5") == TimeControl(60.0, 0.5)
    assert TimeControl.parse("300") == TimeControl(300.0, 0.0)
    assert str(TimeControl.parse("60+0.5")) == "60+0.5"
    for text in ("", "abc", "60+", "-1+2", "0+1", "1+2+3"):
        with pytest.raises(TimeControlError):
            TimeControl.parse(text)


def test_the_cli_refuses_a_bad_time_control_before_playing(capsys):
    from engine.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["match", "--bots", "random", "random", "--games", "1", "--time-control", "fast"])
    assert exited.value.code == 2
    assert "BANK+INCREMENT" in capsys.readouterr().err


# --- robots for people, forfeits ------------------------------------------------------------


def test_a_robot_stands_in_for_a_person_and_hands_the_seat_back():
    session = GameSession.start(SETUP, [PERSON, "random"])
    assert session.advance() == WAITING
    ply = session.ply
    session.stand_in(0, "counting")
    assert not session.waiting_for_person
    session.advance(until=time.monotonic())  # one decision at least, then the deadline
    assert Counting.asked >= 1
    assert any(seat == 0 for seat, _ in session.actions[ply:])  # the robot played seat 0
    # The robot was made when it first decided, seeded for that point of the game.
    assert Counting.seeds[0] == (0, random.Random(bot_seed(SETUP.seed, 0, ply)).random())
    session.hand_back(0)
    asked = Counting.asked
    if session.advance() == WAITING:
        assert session.to_act == 0 and Counting.asked == asked


def test_a_person_who_acts_while_a_robot_stands_in_has_their_seat_back():
    session = GameSession.start(SETUP, [PERSON, PERSON])
    seat = session.to_act
    session.stand_in(seat, "counting")
    person_plays(session, seat)
    assert session.stood_in() == []


def test_a_forfeit_ends_the_game_with_a_public_detail_and_a_private_message():
    session = GameSession.start(SETUP, [PERSON, "random"])
    session.advance()
    session.forfeit(1, "crash", "the bot process was lost", "segfault at 0x0")
    result = session.outcome
    assert session.over and result.termination == "crash" and result.winner == 0
    assert result.record["result"]["detail"] == "the bot process was lost"
    assert "segfault" not in repr(result.record) and result.fault_message == "segfault at 0x0"
    with pytest.raises(NotYourTurn):
        session.act(0, "truco")
    with pytest.raises(ValueError):
        GameSession.start(SETUP, [PERSON, PERSON]).forfeit(0, "normal")


def test_a_bot_that_raises_forfeits_and_the_advance_says_the_game_is_over():
    class Raising(Bot):
        def act(self, observation):
            raise RuntimeError("lost my marbles")

    registry().bots["raising"] = Raising
    try:
        session = GameSession.start(SETUP, ["raising", PERSON])
        while (status := session.advance()) == WAITING:
            person_plays(session, 1)
    finally:
        del registry().bots["raising"]
    assert status == OVER
    assert session.outcome.termination == "crash" and session.outcome.seat == 0
    assert session.outcome.fault_message == "RuntimeError: lost my marbles"


# --- resuming -------------------------------------------------------------------------------


def test_a_game_resumed_from_its_saved_actions_is_the_same_game_and_asks_no_bot():
    session = GameSession.start(SETUP, [PERSON, "counting"])
    steps = 0
    while session.advance() == WAITING:
        steps += 1
        if steps % 4 == 0:
            session.time_out()
        else:
            person_plays(session, 0)
        if steps == 5:
            halfway = (session.actions, list(session.timeouts), copy.deepcopy(session.record()))
    asked = Counting.asked
    again = GameSession.resume(SETUP, [PERSON, "counting"], halfway[0], timeouts=halfway[1])
    assert Counting.asked == asked  # replaying asked nobody
    assert again.record() == halfway[2]
    full = GameSession.resume(
        SETUP, [PERSON, "counting"], session.actions, timeouts=session.timeouts
    )
    assert full.over and full.record() == session.record()
    assert full.result() == session.result()


def test_saved_actions_that_are_not_the_games_are_refused():
    session = GameSession.start(SETUP, [PERSON, PERSON])
    seat = session.to_act
    with pytest.raises(IllegalAction):
        GameSession.resume(SETUP, [PERSON, PERSON], [[seat, "play 9z"]])
    with pytest.raises(NotYourTurn):
        GameSession.resume(SETUP, [PERSON, PERSON], [[1 - seat, "truco"]])


def test_the_advance_stops_at_its_deadline_and_goes_on_where_it_stopped():
    session = GameSession.start(SETUP, ["random", "random"])
    assert session.advance(until=time.monotonic()) == PAUSED
    assert session.ply == 1  # at least one decision per advance
    while (status := session.advance(until=time.monotonic())) == PAUSED:
        pass
    assert status == OVER
    alone = play_game("paulista", ["random", "random"], seed=SETUP.seed, notify=False)
    assert session.outcome.record == alone.record  # slices change nothing of the game


# --- matches --------------------------------------------------------------------------------


def test_a_match_that_needs_a_winner_always_ends_with_one():
    for seed in range(6):
        spec = MatchSpec("paulista", "random", "random", games=2, seed=seed)
        result = play_match(spec, needs_winner=True)
        assert result.winner in ("a", "b")
        assert result.deciders <= 9
        assert len(result.games) == 2 + result.deciders
        if result.deciders:  # deciders stop at the first decided one
            assert result.games[-1].winner_side == result.winner


def test_deciders_alternate_sides_on_their_own_deals_up_to_nine_then_side_a_goes_through():
    from engine.match import MatchGame
    from engine.match_plan import MAX_DECIDERS, MatchPlan
    from engine.seeds import decider_game_seed
    from engine.session import GameResult

    def game(planned, winner_side):
        winner = (
            None
            if winner_side is None
            else (planned.a_team if winner_side == "a" else 1 - planned.a_team)
        )
        result = GameResult(record={}, score=(0, 0), winner=winner, termination="normal")
        return MatchGame(planned.index, planned.pair, planned.a_team, planned.seed, result)

    plan = MatchPlan(games=2, pairs=0, seed=7, needs_winner=True)
    finished = [game(plan.next_game([]), "a")]
    finished.append(game(plan.next_game(finished), "b"))
    deciders = []
    while (planned := plan.next_game(finished)) is not None:
        assert not plan.is_over(finished)
        deciders.append(planned)
        finished.append(game(planned, None))  # undecided: only a game without a winner
    assert len(deciders) == MAX_DECIDERS == 9
    assert [d.a_team for d in deciders] == [n % 2 for n in range(9)]
    assert [d.seed for d in deciders] == [decider_game_seed(7, n) for n in range(9)]
    assert plan.winner(finished) == "a" and plan.is_over(finished)
    decided = finished[:3] + [game(deciders[1], "b")]
    assert plan.winner(decided) == "b" and plan.next_game(decided) is None
    # A match that needs no winner stops after its plan, drawn.
    assert MatchPlan(games=2, pairs=0, seed=7).next_game(finished[:2]) is None


def test_decider_seeds_are_the_ones_tournaments_always_used():
    """A decider's seed is derived from the match seed and "decider/N", as tournaments derived
    it before the match plan moved to the engine: recorded deciders still verify."""
    from engine.seeds import decider_seed, derive

    for seed, number in ((0, 0), (12345, 3), (2**62, 8)):
        assert decider_seed(seed, number) == derive(seed, f"decider/{number}")


def test_a_match_session_seats_people_and_alternates_their_team():
    spec = MatchSpec("paulista", "heuristic", "random", games=2, seed=5)
    with MatchSession(spec, persons={("a", 0)}) as match:
        teams = []
        while (game := match.next_game()) is not None:
            person = 0 if match.planned.a_team == 0 else 1
            teams.append(person)
            assert game.is_person(person) and not game.is_person(1 - person)
            play_out(game, person)
        assert teams == [0, 1]
        assert len(match.games) == 2 and match.over
        assert match.winner == match.result.winner


def test_a_match_session_resumes_its_game_from_saved_actions():
    """A host that stopped mid-game is replaced by one that resumes from the saved actions: the
    game goes on from there (its bots made anew, seeded for that point: the same resumed game
    each time), and the match goes on with the next game of its plan."""
    spec = MatchSpec("paulista", "random", "random", games=2, seed=5)
    played = play_match(spec)
    first = played.games[0]
    saved = [a for hand in first.result.record["hands"] for a in hand["actions"]][:5]
    records = []
    for _ in range(2):
        with MatchSession(spec) as match:
            game = match.next_game(actions=saved)
            assert game.ply == 5 and game.actions == saved
            game.advance()
            second = match.next_game()
            assert match.planned.index == 1
            second.advance()
            assert match.over
        records.append([g.result.record for g in match.result.games])
        resumed = [a for hand in records[-1][0]["hands"] for a in hand["actions"]]
        assert resumed[:5] == saved
    assert records[0] == records[1]
    assert records[0][1] == played.games[1].result.record  # the next game starts afresh


def test_a_bot_that_opts_in_keeps_its_memory_across_the_match_and_others_do_not():
    result = play_match(MatchSpec("paulista", "remembering", "counting", games=4, seed=1))
    assert len(result.games) == 4
    assert Remembering.instances == 1  # one seat, one instance for four games
    assert len(Counting.seeds) == 4  # built afresh for every game
    alone = play_game("paulista", ["remembering", "random"], seed=1, notify=False)
    assert alone.termination == "normal" and Remembering.instances == 2


def test_a_remembering_bot_plays_each_game_with_that_games_generator():
    """Its seat and generator change with the game: the same deals give the same games as a
    bot built afresh for each game."""

    class Fresh(Remembering):
        match_memory = False

    registry().bots["fresh"] = Fresh
    try:
        kept = play_match(MatchSpec("paulista", "remembering", "random", games=3, seed=2))
        fresh = play_match(MatchSpec("paulista", "fresh", "random", games=3, seed=2))
    finally:
        del registry().bots["fresh"]
    assert [g.result.record for g in kept.games] == [g.result.record for g in fresh.games]


# --- bots in the jail -----------------------------------------------------------------------

LOGGING_BOT = (
    "import json, sys\n"
    "game = None\n"
    "for line in sys.stdin:\n"
    "    m = json.loads(line)\n"
    "    if m['type'] == 'match': print('match message', file=sys.stderr, flush=True)\n"
    "    if m['type'] == 'game': game = m['game']\n"
    "    if m['type'] == 'game_end': print('the end of game', game, file=sys.stderr, flush=True)\n"
    "    if m['type'] == 'act': print(json.dumps({'action': m['legal'][0]}), flush=True)\n"
)


def jailed(script: str) -> BotSpec:
    from engine.jail import Program

    return BotSpec("script", isolation="jail", program=Program(("/usr/bin/python3", "-c", script)))


def test_what_a_jailed_bot_logs_on_hearing_a_games_end_is_kept_with_that_game():
    from ..jail.conftest import jail_or_skip

    jail_or_skip()
    result = play_match(MatchSpec("paulista", jailed(LOGGING_BOT), "random", games=3, seed=4))
    for game in result.games:
        log = game.result.logs[game.a_team]  # side A sits at seat a_team in two-player games
        assert f"the end of game {game.index}\n" in log
        assert f"the end of game {game.index - 1}\n" not in log


def test_a_jailed_bot_is_started_once_for_a_whole_match_session(monkeypatch):
    from engine.jail.process import JailedProcess

    from ..jail.conftest import jail_or_skip

    jail_or_skip()
    started = []
    original = JailedProcess.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        started.append(self.pid)

    monkeypatch.setattr(JailedProcess, "__init__", spy)
    spec = MatchSpec("paulista", jailed(LOGGING_BOT), "random", games=3, seed=4)
    with MatchSession(spec, needs_winner=True) as match:
        while (game := match.next_game()) is not None:
            game.advance()
    logs = "".join(text for g in match.games for text in g.result.logs.values())
    assert match.winner is not None
    assert len(started) == 1  # one process for the jailed seat, every game of the match
    assert logs.count("match message") == 1


def test_a_jailed_bots_bank_is_its_deadline_and_running_it_dry_forfeits():
    from ..jail.conftest import jail_or_skip

    jail_or_skip()
    slow = (
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'act':\n"
        "        time.sleep(0.3)\n"
        "        print(json.dumps({'action': m['legal'][0]}), flush=True)\n"
    )
    started = time.monotonic()
    result = play_game(
        "paulista", [jailed(slow), "random"], seed=3, time_control="0.5+0", notify=False
    )
    assert result.termination == "timeout" and result.seat == 0
    assert "time bank" in result.detail
    assert time.monotonic() - started < 8  # stopped at its bank, not at the 10 s deadline


def test_saved_actions_that_end_a_game_end_it_for_the_match_too():
    spec = MatchSpec("paulista", "random", "random", games=2, seed=8)
    played = play_match(spec)
    whole = [a for hand in played.games[0].result.record["hands"] for a in hand["actions"]]
    with MatchSession(spec) as match:
        game = match.next_game(actions=whole)  # the first game was over: the second is next
        assert match.planned.index == 1 and game.ply == 0
        assert match.games[0].result.record == played.games[0].result.record


def test_a_spectator_sees_the_table_but_no_ones_cards():
    session = GameSession.start(SETUP, [PERSON, PERSON])
    view = session.public_view()
    held = [card for seat in range(2) for card in session.observation(seat).hand]
    assert view["hand_sizes"] == [3, 3]
    assert not any(card in repr(view) for card in held)
    assert sorted(c for hand in session.public_view(reveal=True)["hands"] for c in hand) == sorted(
        held
    )


def test_a_table_driven_through_the_match_session_survives_its_host():
    """What a table host does: a person plays side A against a bot over a match, is away for a
    while (a robot stands in), comes back; the host stops mid-game and a new one goes on from
    what was saved (the finished games, the game's actions and timeouts)."""
    spec = MatchSpec("paulista", "heuristic", "random", games=3, seed=9)
    person = ("a", 0)
    with MatchSession(spec, persons={person}, notify=False) as host:
        game = host.next_game()
        seat = host.planned.a_team  # where side A's person sits in this game
        assert game.advance(until=time.monotonic() + 3.0) == WAITING
        person_plays(game, seat)
        if game.advance() == WAITING:
            game.stand_in(seat, host.stand_in_for(seat))  # away past the grace
            game.advance(until=time.monotonic())  # the robot's decision, then the slice ends
            game.hand_back(seat)  # back
        while not game.over and game.ply < 12:
            if game.advance() == WAITING:
                game.time_out()  # the turn timer ran out
        saved_games = list(host.games)
        in_play = not game.over
        saved = (game.actions, list(game.timeouts), dict(game.logs), host.planned.index)
    # A new host, from what was saved: the same game at the same point, and the match goes on.
    with MatchSession(spec, persons={person}, finished=saved_games, notify=False) as host:
        if in_play:
            game = host.next_game(actions=saved[0], timeouts=saved[1], logs=saved[2])
            assert host.planned.index == saved[3] and game.actions == saved[0]
        while (game := host.next_game()) is not None:
            play_out(game, host.planned.a_team)
        assert host.over and len(host.games) == 3
        assert [g.index for g in host.games] == [0, 1, 2]


def test_a_listener_hears_every_action_once_in_order_whoever_plays_it():
    """What a spectator's feed hangs on (tournaments/live_feed.py): bots' and people's actions
    alike, each heard once, after it is applied."""
    heard: list[tuple[int, list]] = []
    session = GameSession.start(
        SETUP,
        [PERSON, "random"],
        on_action=lambda s: heard.append((s.ply, s.actions[-1])),
    )
    session.advance()
    play_out(session, 0)
    assert session.over
    assert [ply for ply, _ in heard] == list(range(1, len(session.actions) + 1))
    assert [action for _, action in heard] == session.actions
    views = []
    played = play_match(
        MatchSpec("paulista", "random", "random", games=2, seed=3),
        on_action=lambda s: views.append(s.ply),
    )
    recorded = [a for g in played.games for h in g.result.record["hands"] for a in h["actions"]]
    assert len(views) == len(recorded)  # a match's every game, every action
