"""The tournament page's buttons: enter a bot or yourself, withdraw, and (for the organiser)
start. Each is a POST that calls tournaments/registration.py, as the API does, and comes back
to the page with a message saying what happened or why not."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from engine.plugins import registry
from tournaments import lifecycle, registration
from tournaments.builders import bots_named
from tournaments.models import Entrant, Tournament
from tournaments.web.pagers import page_of

MAX_BOTS_AT_ONCE = 64


def back(pk: int):
    return redirect("web:tournament", pk=pk)


@require_POST
@login_required(login_url="web:login")
def enter(request, pk: int):
    get_object_or_404(Tournament, pk=pk)
    try:
        if request.POST.get("human"):
            entrant = registration.enter_self(pk, request.user)
        else:
            entrant = registration.enter_bot(pk, request.user, request.POST.get("bot"))
    except registration.RegistrationError as exc:
        messages.error(request, f"Not entered: {exc}")
    else:
        messages.success(request, f"{entrant.name} is entered.")
    return back(pk)


@require_POST
@login_required(login_url="web:login")
def withdraw(request, pk: int):
    get_object_or_404(Tournament, pk=pk)
    try:
        registration.withdraw(pk, request.user, request.POST.get("entrant"))
    except registration.RegistrationError as exc:
        messages.error(request, f"Not withdrawn: {exc}")
    else:
        messages.success(request, "Withdrawn.")
    return back(pk)


@require_POST
@login_required(login_url="web:login")
def start(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if not registration.is_organiser(request.user, tournament):
        messages.error(request, "Only the organiser may start this tournament.")
        return back(pk)
    try:
        lifecycle.start(tournament)
    except lifecycle.LifecycleError as exc:
        messages.error(request, f"Not started: {exc}")
    else:
        messages.success(request, "The tournament has started.")
    return back(pk)


@require_POST
@login_required(login_url="web:login")
def add_bots(request, pk: int):
    """Staff fill a draft with built-in bots: `count` more of the plugin `bot`, each a bot of
    its own ("random", "random #2", ...) so that each is rated apart."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not request.user.is_staff:
        messages.error(request, "Only staff add the site's built-in bots.")
        return back(pk)
    if tournament.status != Tournament.Status.DRAFT:
        messages.error(request, "Bots are added before the start only.")
        return back(pk)
    plugin = request.POST.get("bot", "")
    count = request.POST.get("count", "1")
    if plugin not in registry().bots:
        messages.error(request, f"Not added: {plugin!r} is not a built-in bot.")
        return back(pk)
    if not count.isdigit() or not 1 <= int(count) <= MAX_BOTS_AT_ONCE:
        messages.error(request, f"Not added: give a number of bots from 1 to {MAX_BOTS_AT_ONCE}.")
        return back(pk)
    entered = set(tournament.entrants.exclude(bot=None).values_list("bot_id", flat=True))
    wanted = int(count)
    # bots_named numbers the copies of a plugin from the first: ask for as many as are
    # entered already plus those wanted, and enter the ones not in yet.
    candidates = bots_named([plugin] * (len(entered) + wanted))
    added = []
    for bot in candidates:
        if bot.pk in entered or len(added) == wanted:
            continue
        added.append(Entrant.objects.create(tournament=tournament, name=bot.label, bot=bot))
    messages.success(request, f"Added {', '.join(e.name for e in added)}.")
    return back(pk)


def entry_context(request, tournament: Tournament, per_page: int) -> dict:
    """What the tournament page shows of who is in (a page of `per_page` entrants, in the
    order they entered: `entrants_page`, a bad `?entrants_page=` the first), and the buttons
    this visitor gets. The entrants are read as tuples, not model instances: a 1,024-entrant
    Swiss took 390 ms to build four model instances an entrant (manage.py bench_big), 20 ms
    so; and a page of them only."""
    everyone = tournament.entrants.order_by("id").values_list(
        "id", "name", "bot_id", "bot__url", "bot__name", "bot__version", "bot__owner__username"
    )
    page = page_of(Paginator(everyone, per_page), request.GET.get("entrants_page"))
    rows = list(page.object_list)
    teams: dict[int, list[str]] = {}
    humans = [eid for eid, _, bot_id, *_ in rows if bot_id is None]
    if humans:
        members = Entrant.members.through.objects.filter(entrant_id__in=humans)
        for eid, username in members.order_by("id").values_list(
            "entrant_id", "player__user__username"
        ):
            if username:
                teams.setdefault(eid, []).append(username)
    user = request.user
    mine = {e.pk for e in registration.my_entries(user, tournament, [row[0] for row in rows])}
    summary = registration.registration_summary(tournament, page.paginator.count)
    entrants = []
    for eid, name, bot_id, url, bot_name, version, owner in rows:
        bot = None
        if bot_id is not None:
            label = f"{owner}/{bot_name}" if owner else bot_name
            bot = {"url": url, "label": f"{label} v{version}" if version else label}
        entrant = {"pk": eid, "name": name, "bot": bot, "bot_id": bot_id}
        owners = ([owner] if owner else []) if bot_id is not None else teams.get(eid, [])
        entrants.append({"entrant": entrant, "owners": owners, "mine": eid in mine})
    enterable = []
    if user.is_authenticated and summary["open"]:
        # one version of each of a user's bots per tournament: those entered are not offered
        entered_names = set(
            tournament.entrants.filter(bot__owner=user).values_list("bot__name", flat=True)
        )
        enterable = [b for b in registration.enterable_bots(user) if b.name not in entered_names]
    return {
        "entrants": entrants,
        "entrant_count": page.paginator.count,
        "entrants_page": page,
        "registration": summary,
        "enterable_bots": enterable,
        "is_organiser": registration.is_organiser(user, tournament),
        "builtin_bots": sorted(registry().bots) if user.is_staff else [],
        "may_withdraw": tournament.status == Tournament.Status.DRAFT,
    }
