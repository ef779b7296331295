"""The pages of tables: the lobby (open a table, open tables, your past tables) and a table, whose
live parts are play.js reading the REST API."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render

from engine.errors import OptionError
from engine.plugins import registry
from players.people import player_of
from submitted_bots.models import Bot
from tables.lobby import my_tables, open_tables
from tables.table_words import ladder_words, manilhas, words_of
from tournaments.models import Match


@login_required(login_url="web:login")
def play_lobby(request):
    reg = registry()
    variants = [reg.variants[name].describe() for name in sorted(reg.variants)]
    player = player_of(request.user)
    return render(
        request,
        "tables/play_lobby.html",
        {
            "variants": variants,
            "bots": sorted(reg.bots),
            **opponent_bots(request.user),
            "open_tables": open_tables(player),
            "my_tables": my_tables(player),
        },
    )


OTHERS_BOTS = 50


def opponent_bots(user) -> dict:
    """Besides the built-ins, the quick table offers the user's own ready versions and the
    newest ready version of each other author's bot (those play tournaments in public)."""
    ready = Bot.objects.enterable().filter(owner__isnull=False).select_related("owner")
    own = list(ready.filter(owner=user).order_by("name", "-id"))
    newest: dict[tuple[int, str], Bot] = {}
    for bot in ready.exclude(owner=user).order_by("-id")[: OTHERS_BOTS * 4]:
        newest.setdefault((bot.owner_id, bot.name), bot)
    others = sorted(newest.values(), key=lambda b: b.label.lower())[:OTHERS_BOTS]
    return {"own_bots": own, "others_bots": others}


def play_table(request, pk: int):
    match = get_object_or_404(Match.objects.select_related("tournament"), pk=pk)
    return render(request, "tables/play_table.html", {"match": match, **table_rules(match)})


def table_rules(match: Match) -> dict:
    """The rules panel of a table: the variant's summary, its ladder in its own words, its
    answers and the options in play."""
    tournament = match.tournament
    variant = registry().variants.get(tournament.variant)
    if variant is None:
        return {"variant": None, "ladder": [], "words": None, "options": {}}
    try:
        rules = variant.rules(tournament.options, tournament.preset or None)
    except OptionError:  # options a plugin no longer accepts: show the summary alone
        return {"variant": variant, "ladder": [], "words": None, "options": tournament.options}
    words = words_of(tournament.variant, rules)
    fixed = [] if rules.uses_vira or not words.manilha else manilhas(rules.strength_table(None))
    return {
        "variant": variant,
        "fixed_manilhas": fixed,
        "ladder": ladder_words(words, rules.ladder),
        "words": words,
        "envido": variant.side_bets is not None,
        "options": dict(rules.options),
    }
