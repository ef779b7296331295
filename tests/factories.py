"""factory_boy factories for the Django models (users, players, bots, tournaments, entrants,
rounds, matches, games, ratings). Build what a test needs in a line, with valid defaults:
a GameFactory's record is a real game the engine played."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from engine.runner import play_game
from players.models import Player, Rating
from submitted_bots.models import Bot
from tables.models import TableSettings
from tournaments import lifecycle
from tournaments.builders import create_tournament
from tournaments.models import Entrant, Game, Match, Round, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "secret-pass-123")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class StaffFactory(UserFactory):
    username = factory.Sequence(lambda n: f"staff{n}")
    is_staff = True
    is_superuser = True


class PlayerFactory(factory.django.DjangoModelFactory):
    """A human player with a user account."""

    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"player{n}")
    kind = Player.Kind.HUMAN
    user = factory.SubFactory(UserFactory, username=factory.SelfAttribute("..name"))


class BotFactory(factory.django.DjangoModelFactory):
    """A bot row (its Player is created by Bot.save)."""

    class Meta:
        model = Bot

    name = factory.Sequence(lambda n: f"bot{n}")
    plugin = "random"
    params = factory.LazyFunction(dict)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Cup {n}")
    variant = "paulista"
    players = 2
    format = "single-elimination"
    games_per_match = 2
    seeding = Tournament.Seeding.ORDER
    seed = factory.Sequence(lambda n: 1000 + n)

    @factory.post_generation
    def table(obj, create, extracted, **kwargs):
        """`table__stake=...` and the like: its table settings (tables app). The time per
        decision and `competitive` are the tournament's own: `table__turn_seconds` sets them
        there, as the API's table section does."""
        if create:
            own = {k: kwargs.pop(k) for k in ("turn_seconds", "competitive") if k in kwargs}
            if own:
                Tournament.objects.filter(pk=obj.pk).update(**own)
                for key, value in own.items():
                    setattr(obj, key, value)
            TableSettings.objects.create(tournament=obj, **kwargs)


class EntrantFactory(factory.django.DjangoModelFactory):
    """A bot entrant (pass `bot=None` and add members for a human team)."""

    class Meta:
        model = Entrant

    tournament = factory.SubFactory(TournamentFactory)
    bot = factory.SubFactory(BotFactory)
    name = factory.LazyAttribute(lambda e: e.bot.label if e.bot else f"team{e.tournament.pk}")


def human_entrant(tournament: Tournament, *players: Player, name: str | None = None) -> Entrant:
    entrant = Entrant.objects.create(
        tournament=tournament, name=name or " & ".join(p.name for p in players)
    )
    entrant.members.add(*players)
    return entrant


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    tournament = factory.SubFactory(TournamentFactory)
    round = factory.SubFactory(RoundFactory, tournament=factory.SelfAttribute("..tournament"))
    key = factory.Sequence(lambda n: f"R1-{n + 1}")
    entrant_a = factory.SubFactory(EntrantFactory, tournament=factory.SelfAttribute("..tournament"))
    entrant_b = factory.SubFactory(EntrantFactory, tournament=factory.SelfAttribute("..tournament"))
    seed = factory.Sequence(lambda n: 77 + n)


def played_record(seed: int = 1, variant: str = "paulista", players: int = 2) -> dict:
    return play_game(variant, ["random"] * players, seed=seed, notify=False).record


class GameFactory(factory.django.DjangoModelFactory):
    """A game whose record is a real random game of the match's variant."""

    class Meta:
        model = Game

    match = factory.SubFactory(MatchFactory)
    index = factory.Sequence(lambda n: n)
    a_team = 0
    seed = factory.Sequence(lambda n: n + 1)
    record = factory.LazyAttribute(
        lambda g: played_record(g.seed, g.match.tournament.variant, g.match.tournament.players)
    )
    score_a = factory.LazyAttribute(lambda g: g.record["result"]["score"][g.a_team])
    score_b = factory.LazyAttribute(lambda g: g.record["result"]["score"][1 - g.a_team])
    winner_side = factory.LazyAttribute(
        lambda g: "a" if g.record["result"]["winner"] == g.a_team else "b"
    )
    hands = factory.LazyAttribute(lambda g: len(g.record["hands"]))
    actions = factory.LazyAttribute(lambda g: sum(len(h["actions"]) for h in g.record["hands"]))


def finish(match: Match, *, winner: str = "a", wins=(2, 0), points=(24, 10)) -> Match:
    """Mark a match done with a result (no games needed)."""
    match.status = Match.Status.DONE
    match.winner = match.entrant_a if winner == "a" else match.entrant_b
    match.wins_a, match.wins_b = wins
    match.points_a, match.points_b = points
    match.games_played = sum(wins)
    match.finished_at = timezone.now()
    match.save()
    return match


class RatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rating

    player = factory.SubFactory(PlayerFactory)
    variant = "paulista"
    mu = 25.0
    sigma = 8.333


def started_bots_tournament(name: str, fmt: str, entrants: int, bot_name: str = "{name}-{i}"):
    """A started tournament (its first round paired, nothing sent to workers) of `entrants`
    new bots named by `bot_name`, one game a match."""
    tournament = create_tournament(
        name=name,
        variant="paulista",
        format=fmt,
        bots=[BotFactory(name=bot_name.format(name=name, i=i)) for i in range(entrants)],
        games_per_match=1,
        seed=3,
        seeding="order",
    )
    lifecycle.start(tournament, publish=False)
    return tournament
