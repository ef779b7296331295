"""A spectator's stream at a table where people play (issue 20: "a spectator's stream never
carries a hidden card"): every state a table host pushes to the table's public view, decision
by decision over a whole match, shows no card still in anyone's hand (tables/host.py renders
each view of the table at each change; tables/push.py sends the `public` view to spectators).
On PostgreSQL, through the host's own decision path."""

from __future__ import annotations

import pytest
from django.db import connection

from tables import routing
from tables.host import Held, TableHost
from tables.quick import quick_match
from tables.services import open_match
from tables.signals import writing_as_host
from tests.factories import UserFactory
from tests.play.tables import first_legal_decision
from tests.play.test_human_play import strings
from tournaments.models import Match

pytestmark = pytest.mark.postgres


def public_state(host: TableHost, held: Held) -> dict:
    group = routing.view_group(held.match_id, "public", "en")
    (state,) = [s for g, s in host.render_views(held) if g == group]
    return state


def played_face_up_before(state: dict) -> set[str]:
    """Cards played face up in the hand before (the hand's summary): public, and the same card
    may be dealt again to a hidden hand of the next deal."""
    summary = state.get("hand_summary") or {}
    return {
        card
        for trick in summary.get("tricks", [])
        for _seat, card, covered in trick
        if card and not covered
    }


@pytest.mark.parametrize("variant,players", [("paulista", 2), ("argentino", 4)])
def test_a_spectators_stream_never_carries_a_card_still_in_a_hand(variant, players):
    user = UserFactory()
    match = quick_match(
        user, variant=variant, bot="heuristic", players=players, games=2, turn_seconds=0
    )
    open_match(match.pk, user, "10.0.0.1")
    player = user.player
    host = TableHost("test-host", threads=1)
    pushed = 0
    try:
        assert host.take_lease(match.pk)
        held = host.held[match.pk] = Held(match.pk)
        held.views[("public", "en")] += 1  # a spectator watches
        held.views[(f"p{player.pk}", "en")] += 1
        with writing_as_host():
            assert host.rebuild(held)
            while held.table.match.status == Match.Status.RUNNING and not held.table.to_record:
                if held.table.game is None:  # between games: the master deals the next one
                    open_match(match.pk, user, "10.0.0.1")
                    assert host.rebuild(held)
                table = held.table
                state = public_state(host, held)
                hidden = {
                    card for hand in table.game.state.hands for card in hand if card is not None
                }
                shown = strings(state) - played_face_up_before(state)
                assert hidden and not hidden & shown, hidden & shown
                assert not state.get("you")  # a spectator holds no seat
                pushed += 1
                message = first_legal_decision(table, player.pk)
                host.act_at_once(held, message)
    finally:
        if match.pk in host.held and host.held[match.pk].table is not None:
            host.held[match.pk].table.close_bots()
        host.pool.submit(lambda: connection.close()).result()
        host.pool.shutdown(wait=True)
    assert pushed > 5  # a whole match's worth of states was looked at
