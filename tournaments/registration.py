"""Entering tournaments: who organises a tournament, whether its registration is open, and a
signed-in user entering their bot or themselves, or withdrawing, before the start.

Every entry and withdrawal runs under a row lock on the tournament, so two users taking the last
place at the same moment cannot both get it: the second one sees the first one's entrant and
the cap. Refusals raise RegistrationError with the HTTP status the API answers (400 bad input,
403 not yours, 409 closed or full), and a message that says why.
"""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from engine.bundles import Manifest
from engine.plugins import registry
from players.models import Player
from players.people import player_for
from submitted_bots.budgets import decision_budget
from submitted_bots.models import Bot
from tournaments.models import Entrant, Tournament


class RegistrationError(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


# --- who organises ------------------------------------------------------------------------


def users_create_tournaments() -> bool:
    return bool(getattr(settings, "TRUCO_USERS_CREATE_TOURNAMENTS", False))


def may_create_tournaments(user) -> bool:
    """Staff always; any signed-in user when the site allows it."""
    if not user or not user.is_authenticated:
        return False
    return user.is_staff or users_create_tournaments()


def is_organiser(user, tournament: Tournament) -> bool:
    """Staff organise every tournament; a user the ones they created, when the site allows
    users to create tournaments."""
    if not user or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return users_create_tournaments() and tournament.created_by_id == user.id


def others_play_in(tournament: Tournament, user) -> bool:
    """Whether people other than `user` play in `tournament`: a human entrant with another
    member, or another user's bot. Their games, stakes and history are not the organiser's to
    undo: once it has started, only staff cancel or delete such a tournament."""
    # Players, not entrants: a team with the organiser in it may hold someone else too (a
    # partner who sat down at her 2v2 table).
    other_people = Player.objects.filter(entries__tournament=tournament).exclude(user=user)
    other_bots = Entrant.objects.filter(tournament=tournament, bot__owner__isnull=False).exclude(
        bot__owner=user
    )
    return other_people.exists() or other_bots.exists()


def check_may_end(tournament: Tournament, user, verb: str) -> None:
    """Refuses (403) `user` to `verb` (cancel, pause, delete) this tournament they organise
    when others play in it and it has started."""
    if user.is_staff or tournament.status == Tournament.Status.DRAFT:
        return
    if others_play_in(tournament, user):
        raise RegistrationError(
            f"only staff may {verb} a tournament that others play in once it has started; "
            "at your own table, the players end it together "
            "(POST /api/play/matches/{id}/end-vote/)",
            403,
        )


# --- is it open -----------------------------------------------------------------------------


def closed_reason(tournament: Tournament, now=None) -> str | None:
    """Why nobody may enter or withdraw now; None while registration is open."""
    if tournament.status != Tournament.Status.DRAFT:
        return f"the tournament is {tournament.status}: entries closed when it started"
    if not tournament.registration_open:
        return "this tournament is not open for registration"
    deadline = tournament.registration_deadline
    if deadline is not None and (now or timezone.now()) >= deadline:
        return f"registration closed at {deadline:%Y-%m-%d %H:%M} UTC"
    return None


def open_to(bot: Bot) -> list[Tournament]:
    """The competitions open for registration now in a game setting the version plays."""
    settings_played = set(Manifest.from_json(bot.manifest or {}).configurations(registry()))
    now = timezone.now()
    open_now = Tournament.objects.filter(
        kind=Tournament.Kind.COMPETITION,
        status=Tournament.Status.DRAFT,
        registration_open=True,
    ).filter(Q(registration_deadline__isnull=True) | Q(registration_deadline__gt=now))
    return [t for t in open_now if (t.variant, t.players) in settings_played]


def enterable_budgets(bot: Bot) -> list[float]:
    """The decision budgets of the competitions the version may enter now (its smoke match
    plays under one of them: submitted_bots/smoke_match.py)."""
    return [decision_budget(t.turn_seconds) for t in open_to(bot)]


def places_left(tournament: Tournament, entrants: int) -> int | None:
    if tournament.max_entrants is None:
        return None
    return max(tournament.max_entrants - entrants, 0)


def registration_summary(tournament: Tournament, entrants: int) -> dict:
    """What the API and the page show of the registration."""
    reason = closed_reason(tournament)
    left = places_left(tournament, entrants)
    if reason is None and left == 0:
        reason = f"the tournament is full ({tournament.max_entrants} entrants)"
    return {
        "open": reason is None,
        "reason": reason or "",
        "deadline": tournament.registration_deadline,
        "max_entrants": tournament.max_entrants,
        "places_left": left,
    }


# --- what a user may enter ----------------------------------------------------------------


def enterable_bots(user):
    """The user's bots that may be entered: their own, active and `ready` (a version still
    validating, rejected or retired is not)."""
    return Bot.objects.enterable().filter(owner=user).order_by("name", "version")


def _lock_open(tournament_id: int) -> Tournament:
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise RegistrationError("no such tournament", 404) from None
    reason = closed_reason(tournament)
    if reason is not None:
        raise RegistrationError(reason, 409)
    return tournament


def _check_room(tournament: Tournament) -> None:
    count = tournament.entrants.count()
    if tournament.max_entrants is not None and count >= tournament.max_entrants:
        raise RegistrationError(f"the tournament is full ({tournament.max_entrants} entrants)", 409)


def enter_bot(tournament_id: int, user, bot_id) -> Entrant:
    """Enter the user's bot (one version of each of their bots per tournament)."""
    with transaction.atomic():
        tournament = _lock_open(tournament_id)
        bot = _own_bot(user, bot_id)
        if not bot.is_enterable:
            raise RegistrationError(
                f"bot {bot.label!r} is not ready to be entered (it is "
                f"{bot.status if bot.is_active else 'inactive'})"
            )
        if tournament.entrants.filter(bot__owner=user, bot__name=bot.name).exists():
            raise RegistrationError(
                f"a version of {bot.name!r} is already entered: withdraw it first", 409
            )
        _check_room(tournament)
        return _create(tournament, user, name=bot.label, bot=bot)


def enter_self(tournament_id: int, user) -> Entrant:
    """Enter the user as a human entrant (a team of one; in 2 v 2, a robot partners them)."""
    with transaction.atomic():
        tournament = _lock_open(tournament_id)
        player: Player = player_for(user)
        if tournament.entrants.filter(members=player).exists():
            raise RegistrationError("you are already entered in this tournament", 409)
        _check_room(tournament)
        entrant = _create(tournament, user, name=player.name)
        entrant.members.add(player)
        return entrant


def _row_id(value) -> int | None:
    """An id from a form or a body, or None when it cannot be one (so that a 30-digit number
    is a "no such" answer, not a database error)."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if 0 < number < 2**62 else None


def _own_bot(user, bot_id) -> Bot:
    try:
        bot = Bot.objects.get(pk=_row_id(bot_id))
    except Bot.DoesNotExist:
        raise RegistrationError(f"no such bot: {str(bot_id)[:40]!r}") from None
    if bot.owner_id != user.id:
        raise RegistrationError("you may enter only your own bots", 403)
    return bot


def _create(tournament: Tournament, user, *, name: str, bot: Bot | None = None) -> Entrant:
    if tournament.entrants.filter(name=name).exists():
        raise RegistrationError(f"an entrant named {name!r} is already in", 409)
    try:
        with transaction.atomic():
            return Entrant.objects.create(
                tournament=tournament, name=name, bot=bot, entered_by=user
            )
    except IntegrityError:
        raise RegistrationError(f"an entrant named {name!r} is already in", 409) from None


def withdraw(tournament_id: int, user, entrant_id) -> None:
    """Withdraw an entrant before the start: its user (who entered it, or whom it is) or the
    organiser."""
    with transaction.atomic():
        try:
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        except Tournament.DoesNotExist:
            raise RegistrationError("no such tournament", 404) from None
        try:
            entrant = tournament.entrants.get(pk=_row_id(entrant_id))
        except Entrant.DoesNotExist:
            raise RegistrationError(
                f"no such entrant in this tournament: {str(entrant_id)[:40]!r}"
            ) from None
        if not (is_organiser(user, tournament) or _is_theirs(user, entrant)):
            raise RegistrationError("you may withdraw only your own entries", 403)
        if tournament.status != Tournament.Status.DRAFT:
            raise RegistrationError(
                f"the tournament is {tournament.status}: too late to withdraw", 409
            )
        if not is_organiser(user, tournament):
            reason = closed_reason(tournament)
            if reason is not None:
                raise RegistrationError(reason, 409)
        entrant.delete()


def _is_theirs(user, entrant: Entrant) -> bool:
    if entrant.entered_by_id == user.id:
        return True
    if entrant.bot_id is not None:
        return entrant.bot.owner_id == user.id
    return entrant.members.filter(user=user).exists()


def my_entries(user, tournament: Tournament, among: list[int] | None = None) -> list[Entrant]:
    """The user's entrants in the tournament (theirs to withdraw); `among`: of these entrants
    only (the ids of a page of them)."""
    if not user or not user.is_authenticated:
        return []
    entrants = tournament.entrants.select_related("bot").prefetch_related("members__user")
    if among is not None:
        entrants = entrants.filter(pk__in=among)
    return [e for e in entrants if _is_theirs(user, e)]
