"""The table tells players what happened: choices labelled in the variant's words and grouped,
the hand's log, the last hand's summary (who won it, for how much, why), distinct seat labels,
the envido and the manilhas, the end of a game with its replay and a rematch; and all of it
without a card a seat may not see."""

from __future__ import annotations

import pytest

from engine.deals import Deal
from engine.plugins import get_variant, registry
from tables.hand_story import hand_story
from tables.table_words import choices, log_lines, manilhas, words_of
from tournaments.models import Game, Tournament

from .test_human_play import strings

pytestmark = pytest.mark.django_db


def game(variant: str, actions=(), players: int = 2, deals=None, **options):
    state = (
        registry().variant(variant).new_game(players, options, seed=3, deals=deals, first_dealer=1)
    )
    for action in actions:
        state = state.apply(action)
    return state


def choices_of(state) -> dict[str, dict]:
    observation = state.observation(state.to_act).to_dict()
    return {c["action"]: c for c in choices(observation, state.rules)}


def names(story) -> str:
    return story["headline"] + " | " + " | ".join(story["reasons"])


# --- the variant's words -----------------------------------------------------------------


def test_a_paulista_raise_is_named_by_its_step_and_says_what_accepting_is_worth():
    state = game("paulista", ["truco"])  # 1 -> 3 proposed
    offered = choices_of(state)
    assert offered["accept"]["label"] == "aceito" and "worth 3" in offered["accept"]["hint"]
    assert offered["refuse"]["label"] == "corro" and "1 point" in offered["refuse"]["hint"]
    assert offered["truco"]["label"] == "seis" and offered["truco"]["hint"] == "raise to 6"
    state = state.apply("truco").apply("truco")  # seis, then nove proposed
    assert choices_of(state)["truco"]["label"] == "doze"


def test_argentino_says_retruco_quiero_and_what_an_envido_is_worth():
    state = game("argentino", ["truco"])
    offered = choices_of(state)
    assert offered["truco"]["label"] == "retruco" and offered["truco"]["hint"] == "raise to 3"
    assert offered["accept"]["label"] == "quiero" and offered["refuse"]["label"] == "no quiero"
    assert offered["real_envido"]["label"] == "real envido"
    assert offered["real_envido"]["hint"] == "if accepted: 3 points"
    state = state.apply("envido")  # envido goes first; its answer is quiero / no quiero
    offered = choices_of(state)
    assert (
        offered["accept"]["label"] == "quiero"
        and offered["accept"]["hint"] == "if accepted: 2 points"
    )
    assert offered["refuse"]["hint"] == "the others score 1 point"
    assert "what the leader lacks (30 points)" in offered["falta_envido"]["hint"]


def test_mineiro_ladder_words_and_its_hand_of_ten():
    state = game("mineiro", ["truco"])  # 2 -> 4
    assert choices_of(state)["truco"]["label"] == "seis"
    assert "worth 4" in choices_of(state)["accept"]["hint"]
    assert words_of("mineiro").hand_of_n == "mão de dez"
    assert words_of("paulista").hand_of_n == "mão de onze"
    # The pagat presets play the hand of eleven: the variant says so for those rules.
    pagat = get_variant("mineiro").rules(preset="mineiro-pagat")
    assert words_of("mineiro", pagat).hand_of_n == "mão de onze"


def test_cards_come_first_then_bets_then_answers_and_covering_is_its_own_choice():
    argentino = choices_of(game("argentino"))  # legal actions come sorted: fold before play
    rank = {"card": 0, "bet": 1, "answer": 2, "other": 3}
    groups = [rank[c["group"]] for c in argentino.values()]
    assert groups == sorted(groups) and groups[0] == 0 and 1 in groups and groups[-1] == 3
    assert argentino["fold"]["label"] == "go to the mazo" and argentino["fold"]["group"] == "other"
    # Paulista, second trick: each card may be played or covered, two different choices.
    state = game("paulista")
    for _ in range(2):
        state = state.apply(next(a for a in state.legal_actions() if a.startswith("play ")))
    offered = choices_of(state)
    covers = [c for c in offered.values() if c["action"].startswith("cover ")]
    plays = [c for c in offered.values() if c["action"].startswith("play ")]
    assert covers and {c["label"] for c in covers} == {c["label"] for c in plays}
    assert all("face down" in c["hint"] for c in covers) and all(
        "face up" in c["hint"] for c in plays
    )


def test_the_log_names_each_raise_and_what_an_answer_answered():
    lines = log_lines(
        [(0, "truco"), (1, "truco"), (0, "accept"), (0, "play 4c")],
        (1, 3, 6, 9, 12),
        words_of("paulista"),
    )
    assert [line["text"] for line in lines] == ["truco (3)", "seis (6)", "aceito", "plays"]
    assert lines[-1]["card"] == "4c"
    argentine = log_lines(
        [(0, "truco"), (1, "envido"), (0, "accept"), (1, "refuse")],
        (1, 2, 3, 4),
        words_of("argentino"),
    )
    assert [line["text"] for line in argentine] == ["truco (2)", "envido", "quiero", "no quiero"]


def test_the_manilhas_follow_the_vira_and_mineiro_has_its_fixed_four():
    state = game("paulista", deals=[Deal((("4c", "5c", "6c"), ("4h", "5h", "6h")), "7d")])
    assert manilhas(state.strength) == ["Qc", "Qh", "Qs", "Qd"]
    assert manilhas(game("mineiro").strength) == ["4c", "7h", "As", "7d"]


# --- the hand's summary ------------------------------------------------------------------


def story_of(state, **names):
    summary = state.observation(0).to_dict()["previous_hand"]
    label = {0: "Ana", 1: "Bea"}
    return hand_story(
        summary,
        state.rules.ladder,
        words_of(state.rules.variant_name, state.rules),
        lambda team: label[team],
        lambda seat: label[seat % 2],
        get_variant(state.rules.variant_name).side_bets,
    )


def test_a_refused_raise_says_who_refused_what_and_the_points():
    # First dealer 1: seat 0 is the mão. Truco, seis, and seis is refused: 3 points for seat 1.
    state = game("paulista", ["truco", "truco", "refuse"])
    story = story_of(state)
    assert story["points"] == [0, 3] and story["winner"] == 1
    assert story["headline"] == "Hand 1: Bea +3 points"
    assert story["reasons"] == ["Ana refused seis (6) (corro)"]


def test_a_hand_won_on_the_tricks_says_so():
    state = game("paulista")
    while state.hand_no == 0:
        state = state.apply(next(a for a in state.legal_actions() if a.startswith("play ")))
    story = story_of(state)
    assert story["headline"].endswith("+1 point") and "tricks won: Ana" in story["reasons"][-1]
    assert story["tricks"] and len(story["results"]) == len(story["tricks"])


def test_an_accepted_envido_says_who_won_it_with_how_many():
    # Seat 0 holds 7 and 6 of espadas (33), seat 1 nothing better.
    deal = Deal((("7e", "6e", "4b"), ("5o", "4c", "12b")), None)
    state = game("argentino", ["envido", "accept", "fold"], deals=[deal, deal])
    story = story_of(state)
    assert "envido (quiero): Ana won with 33 · 2 points" in story["reasons"]
    assert "Ana went to the mazo" in story["reasons"]
    assert story["points"] == [2, 1]


def test_flor_is_shown_in_the_summary():
    deal = Deal((("7e", "6e", "5e"), ("5o", "4c", "12b")), None)
    state = game("argentino", ["flor", "fold"], deals=[deal, deal], flor=True)
    assert any(r.startswith("flor: Ana") for r in story_of(state)["reasons"])


# --- the table's state, through the API --------------------------------------------------


def quick(client, **body):
    response = client.post("/api/play/quick/", {"bot": "random", **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_2v2_seats_have_distinct_labels_you_and_your_partner(user_api):
    state = quick(user_api, variant="paulista", players=4)
    labels = {s["seat"]: s["label"] for s in state["seats"]}
    mine = state["you"][0]
    assert labels[mine] == "You"
    assert labels[(mine + 2) % 4] == "your partner (robot)"
    assert sorted(labels[(mine + k) % 4] for k in (1, 3)) == ["random 1", "random 2"]
    assert len(set(labels.values())) == 4


def test_the_new_parts_of_the_state_show_no_card_a_seat_may_not_see(user_api):
    from tables.services import load
    from tournaments.models import Match

    # The bots act first, and a falta envido between them can win the whole game before the
    # person's first turn (a true end, about one table in thirty): open another table then.
    for _ in range(20):
        state = quick(user_api, variant="argentino", players=4, options={"flor": True})
        table = load(Match.objects.get(pk=state["match"]))
        if table.game is not None:
            break
    assert table.game is not None, "twenty tables in a row ended before the person's turn"
    hidden = {
        card
        for seat, hand in enumerate(table.game.state.hands)
        if seat not in state["you"]
        for card in hand
        if card is not None
    }
    # A card played face up in the hand before (its summary, the log) is public, and the same
    # card may be in a hidden hand of this new deal: that is no leak (one table in sixty).
    summary = state["hand_summary"] or {}
    played_before = {
        card
        for trick in summary.get("tricks", [])
        for _seat, card, covered in trick
        if card and not covered
    }
    extra = {k: state[k] for k in ("choices", "log", "hand_summary", "envido", "seats")}
    shown = (strings(extra) | strings(state["table"])) - played_before
    assert hidden and not hidden & shown
    assert set(state["envido"]["yours"]) == {str(s) for s in state["you"]}


def test_a_finished_game_names_its_winner_score_replay_and_offers_a_rematch(user_api):
    from .test_human_play import play_to_end

    state = quick(user_api, variant="paulista", options={"target": 3})
    state = play_to_end(user_api, state["match"], state)
    assert state["status"] == "done" and state["game"]["finished"] == 1
    over = state["game_over"]
    game_row = Game.objects.get(match_id=state["match"])
    assert over["replay"] == f"/games/{game_row.pk}/replay/"
    assert sorted(over["score"]) == sorted([game_row.score_a, game_row.score_b])
    assert max(over["score"]) >= 3
    won = over["you_won"]
    assert over["headline"].startswith("You won the game") == won
    assert over["headline"].startswith("random won the game") == (not won)
    assert state["hand_summary"]["headline"].startswith("Hand ")
    again = user_api.post("/api/play/quick/", state["rematch"], format="json")
    assert again.status_code == 201, again.json()
    fresh = Tournament.objects.get(pk=again.json()["tournament"]["id"])
    assert (fresh.variant, fresh.options) == ("paulista", {"target": 3})


def test_the_replay_of_a_2v2_table_does_not_give_the_robot_partner_the_humans_name(user_api, user):
    from .test_human_play import play_to_end

    state = quick(user_api, variant="paulista", players=4, options={"target": 3})
    state = play_to_end(user_api, state["match"], state)
    game_row = Game.objects.get(match_id=state["match"])
    seats = user_api.get(f"/api/games/{game_row.pk}/replay/").json()["seats"]
    names = [s["name"] for s in seats]
    assert len(set(names)) == 4
    assert names.count(user.username) == 1 and "robot (heuristic)" in names


def test_between_two_games_the_finished_game_is_told_from_the_players_own_seats(user_api):
    """The sides change seats from one game to the next: the end of game 1 still calls the
    player's team "You", and each card of its last hand is labelled with who played it then."""
    state = quick(user_api, variant="truc-tete", games=2, options={"target": 3})
    for _ in range(300):
        if state["waiting"] == "next":
            break
        seat = str(state["to_act"])
        action = state["observations"][seat]["legal"][0]
        state = user_api.post(
            f"/api/play/matches/{state['match']}/act/", {"action": action, "turn": state["turn"]}
        ).json()
    assert state["waiting"] == "next" and state["game"]["finished"] == 1
    over = state["game_over"]
    assert over["teams"].count("You") == 1 and "random" in over["teams"]
    assert over["you_won"] == (over["teams"][over["winner"]] == "You")
    story = state["hand_summary"]
    assert set(story["seats"].values()) <= {"You", "random"}
    assert all(w in ("You", "random", "tied") for w in story["trick_winners"])
    assert over["replay"] is None  # the match is recorded, with its replays, when it ends


def test_the_manilhas_are_named_by_their_rank_or_by_the_page_where_they_are_fixed(
    user_api, client, user
):
    cycle = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
    state = quick(user_api, variant="paulista")
    vira = state["table"]["vira"][:-1]
    assert state["table"]["manilha_rank"] == cycle[(cycle.index(vira) + 1) % len(cycle)]
    mineiro = quick(user_api, variant="mineiro")
    assert mineiro["table"]["manilha_rank"] is None
    client.force_login(user)
    page = client.get(f"/play/matches/{mineiro['match']}/").content.decode()
    assert 'data-manilhas="4c 7h As 7d"' in page


def test_a_hand_played_for_a_raise_says_for_which():
    state = game("paulista", ["truco", "truco", "accept"])  # seis accepted: worth 6
    while state.hand_no == 0:
        state = state.apply(next(a for a in state.legal_actions() if a.startswith("play ")))
    story = story_of(state)
    assert story["reasons"][-1].endswith("played for seis (6)")
    assert story["headline"].endswith("+6 points")
