"""Tournaments through the API: staff create them with entrants and run their lifecycle; bad
input is a 400 with a message per field; results (standings, bracket, matches, games and their
records, ratings) are public."""

from __future__ import annotations

import pytest

from tests.factories import BotFactory, PlayerFactory, TournamentFactory, human_entrant
from tournaments.models import Match, Tournament
from tournaments.runner import run_in_process

pytestmark = pytest.mark.postgres  # row locks and commits as in production


def bots(n: int, plugin: str = "random") -> list[int]:
    return [BotFactory(plugin=plugin).pk for _ in range(n)]


def payload(**overrides) -> dict:
    body = {
        "name": "Spring Cup",
        "variant": "paulista",
        "format": "single-elimination",
        "games_per_match": 2,
        "entrants": [{"bot": pk} for pk in bots(4)],
    }
    body.update(overrides)
    return body


def test_staff_create_a_tournament_with_entrants_and_table(staff_api):
    body = payload(table={"turn_seconds": 15, "competitive": False}, options={"deck": "clean"})
    response = staff_api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["status"] == "draft" and data["options"] == {"deck": "clean"}
    assert len(data["entrants"]) == 4
    assert data["table"]["turn_seconds"] == 15 and data["table"]["competitive"] is False
    assert data["progress"] == {"done": 0, "total": 3, "percent": 0.0}


def test_anonymous_and_players_cannot_create_tournaments(api, user_api):
    assert api.post("/api/tournaments/", payload(), format="json").status_code in (401, 403)
    assert user_api.post("/api/tournaments/", payload(), format="json").status_code == 403


def test_unknown_variant_is_a_400_naming_the_registered_ones(staff_api):
    response = staff_api.post("/api/tournaments/", payload(variant="poker"), format="json")
    assert response.status_code == 400
    assert "unknown variant 'poker'" in response.json()["variant"][0]
    assert "paulista" in response.json()["variant"][0]


def test_options_invalid_for_the_variant_schema_are_a_400(staff_api):
    unknown = staff_api.post("/api/tournaments/", payload(options={"jokers": True}), format="json")
    assert unknown.status_code == 400
    assert "unknown option 'jokers'" in unknown.json()["options"][0]
    bad_value = staff_api.post("/api/tournaments/", payload(options={"target": 99}), format="json")
    assert bad_value.status_code == 400
    assert "target" in bad_value.json()["options"][0]
    preset = staff_api.post("/api/tournaments/", payload(preset="vegas"), format="json")
    assert preset.status_code == 400 and "unknown preset" in preset.json()["preset"][0]


def test_unknown_format_and_bad_format_options_are_a_400(staff_api):
    fmt = staff_api.post("/api/tournaments/", payload(format="ladder"), format="json")
    assert fmt.status_code == 400 and "unknown format" in fmt.json()["format"][0]
    opts = staff_api.post(
        "/api/tournaments/", payload(format_options={"third_place": "yes"}), format="json"
    )
    assert opts.status_code == 400 and "third_place" in opts.json()["format_options"][0]
    metrics = staff_api.post("/api/tournaments/", payload(metrics=["luck"]), format="json")
    assert metrics.status_code == 400 and "luck" in metrics.json()["metrics"][0]


def test_wrong_player_count_for_the_variant_is_a_400(staff_api):
    response = staff_api.post(
        "/api/tournaments/", payload(variant="truc-tete", players=4), format="json"
    )
    assert response.status_code == 400
    assert "players" in response.json()


def test_too_few_entrants_is_a_400(staff_api):
    response = staff_api.post(
        "/api/tournaments/", payload(entrants=[{"bot": bots(1)[0]}]), format="json"
    )
    assert response.status_code == 400
    assert "at least 2 entrants" in response.json()["entrants"][0]
    missing = staff_api.post("/api/tournaments/", payload(entrants=None), format="json")
    assert missing.status_code == 400


def test_entrant_must_be_a_bot_or_a_team_and_appear_once(staff_api):
    bot = bots(1)[0]
    player = PlayerFactory()
    both = staff_api.post(
        "/api/tournaments/",
        payload(entrants=[{"bot": bot, "members": [player.pk]}, {"bot": bots(1)[0]}]),
        format="json",
    )
    assert both.status_code == 400 and "either a bot" in str(both.json()["entrants"])
    twice = staff_api.post(
        "/api/tournaments/", payload(entrants=[{"bot": bot}, {"bot": bot}]), format="json"
    )
    assert twice.status_code == 400 and "entered twice" in twice.json()["entrants"][0]
    no_such = staff_api.post(
        "/api/tournaments/", payload(entrants=[{"bot": 999999}, {"bot": bot}]), format="json"
    )
    assert no_such.status_code == 400
    assert "does not exist" in no_such.json()["entrants"]["0"]["bot"][0]


def test_team_size_is_checked_against_the_game(staff_api):
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    too_big = staff_api.post(
        "/api/tournaments/",
        payload(entrants=[{"members": [a.pk, b.pk]}, {"bot": bots(1)[0]}]),
        format="json",
    )
    assert too_big.status_code == 400 and "1 to 1 player" in too_big.json()["entrants"][0]
    pairs = staff_api.post(
        "/api/tournaments/",
        payload(players=4, entrants=[{"members": [a.pk, b.pk]}, {"members": [c.pk]}]),
        format="json",
    )
    assert pairs.status_code == 201, pairs.json()
    names = {e["name"] for e in pairs.json()["entrants"]}
    assert f"{a.name} & {b.name}" in names


def test_lifecycle_start_pause_resume_cancel(staff_api, no_broker):
    tid = staff_api.post("/api/tournaments/", payload(), format="json").json()["id"]
    started = staff_api.post(f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"
    assert len(no_broker) == 2  # the two semi-finals went to the workers
    again = staff_api.post(f"/api/tournaments/{tid}/start/")
    assert again.status_code == 400 and "not a draft" in again.json()["detail"]
    assert staff_api.post(f"/api/tournaments/{tid}/pause/").json()["status"] == "paused"
    assert staff_api.post(f"/api/tournaments/{tid}/pause/").status_code == 400
    assert staff_api.post(f"/api/tournaments/{tid}/resume/").json()["status"] == "running"
    assert staff_api.post(f"/api/tournaments/{tid}/cancel/").json()["status"] == "cancelled"
    assert set(Match.objects.filter(tournament_id=tid).values_list("status", flat=True)) == {
        "cancelled"
    }


def test_players_cannot_run_the_lifecycle(user_api, api):
    tournament = TournamentFactory()
    for verb in ("start", "pause", "resume", "cancel"):
        assert user_api.post(f"/api/tournaments/{tournament.pk}/{verb}/").status_code == 403
        assert api.post(f"/api/tournaments/{tournament.pk}/{verb}/").status_code in (401, 403)


def test_only_a_draft_can_be_changed_and_a_running_one_not_deleted(staff_api):
    tid = staff_api.post("/api/tournaments/", payload(), format="json").json()["id"]
    renamed = staff_api.patch(f"/api/tournaments/{tid}/", {"name": "Autumn Cup"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Autumn Cup"
    staff_api.post(f"/api/tournaments/{tid}/start/")
    refused = staff_api.patch(f"/api/tournaments/{tid}/", {"name": "x"}, format="json")
    assert refused.status_code == 400 and "only a draft" in refused.json()["detail"]
    assert staff_api.delete(f"/api/tournaments/{tid}/").status_code == 400
    staff_api.post(f"/api/tournaments/{tid}/cancel/")
    assert staff_api.delete(f"/api/tournaments/{tid}/").status_code == 204


def test_entrants_are_added_and_removed_only_in_a_draft(staff_api):
    tid = staff_api.post("/api/tournaments/", payload(), format="json").json()["id"]
    added = staff_api.post("/api/entrants/", {"tournament": tid, "bot": bots(1)[0]}, format="json")
    assert added.status_code == 201, added.json()
    assert staff_api.get(f"/api/entrants/?tournament={tid}").json()["count"] == 5
    assert staff_api.delete(f"/api/entrants/{added.json()['id']}/").status_code == 204
    staff_api.post(f"/api/tournaments/{tid}/start/")
    late = staff_api.post("/api/entrants/", {"tournament": tid, "bot": bots(1)[0]}, format="json")
    assert late.status_code == 400 and "draft" in late.json()["tournament"][0]


def play_out(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.get(pk=tournament_id)
    run_in_process(tournament)
    tournament.refresh_from_db()
    return tournament


def test_results_are_public_after_a_tournament_is_played(staff_api, api):
    tid = staff_api.post("/api/tournaments/", payload(games_per_match=1), format="json").json()[
        "id"
    ]
    staff_api.post(f"/api/tournaments/{tid}/start/")
    assert play_out(tid).status == "done"

    standings = api.get(f"/api/tournaments/{tid}/standings/").json()
    assert standings["progress"] == {"done": 3, "total": 3, "percent": 100.0}
    assert [row["rank"] for row in standings["rows"]][0] == 1
    assert standings["metrics"][0] == "placement"

    bracket = api.get(f"/api/tournaments/{tid}/bracket/").json()
    assert bracket["kind"] == "bracket"
    rounds = bracket["sections"][0]["rounds"]
    assert [len(r["matches"]) for r in rounds] == [2, 1]
    final = rounds[1]["matches"][0]
    assert final["winner"] in (final["a"]["id"], final["b"]["id"])

    matches = api.get(f"/api/matches/?tournament={tid}").json()
    assert matches["count"] == 3 and {m["status"] for m in matches["results"]} == {"done"}
    games = api.get(f"/api/games/?tournament={tid}").json()
    assert games["count"] == 3 and "record" not in games["results"][0]
    game_id = games["results"][0]["id"]
    record = api.get(f"/api/games/{game_id}/record/")
    assert record.json()["format"] == "truco-record/1"
    assert "attachment" in record["Content-Disposition"]
    assert api.get(f"/api/games/{game_id}/").json()["record"] == record.json()

    leaderboard = api.get("/api/ratings/?variant=paulista").json()["results"]
    assert len(leaderboard) == 4
    ordinals = [r["ordinal"] for r in leaderboard]
    assert ordinals == sorted(ordinals, reverse=True)
    assert "±" in leaderboard[0]["display"]


def test_replay_frames_step_through_the_whole_game(staff_api, api):
    tid = staff_api.post("/api/tournaments/", payload(games_per_match=1), format="json").json()[
        "id"
    ]
    staff_api.post(f"/api/tournaments/{tid}/start/")
    play_out(tid)
    game = api.get(f"/api/games/?tournament={tid}").json()["results"][0]
    replay = api.get(f"/api/games/{game['id']}/replay/").json()
    assert len(replay["frames"]) == game["actions"] + 1
    assert replay["frames"][0]["action"] is None
    assert replay["summary"]["finished"] is True
    last = replay["frames"][-1]["view"]
    assert sorted(last["score"]) == sorted([game["score_a"], game["score_b"]])
    # A finished game is shown whole: the first frame has every seat's cards.
    assert all(len(cards) == 3 for cards in replay["frames"][0]["view"]["hands"])


def test_rerun_a_failed_match(staff_api, api):
    tid = staff_api.post("/api/tournaments/", payload(games_per_match=1), format="json").json()[
        "id"
    ]
    staff_api.post(f"/api/tournaments/{tid}/start/")
    match = Match.objects.filter(tournament_id=tid).first()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED, error="boom")
    assert api.post(f"/api/matches/{match.pk}/rerun/").status_code in (401, 403)
    rerun = staff_api.post(f"/api/matches/{match.pk}/rerun/")
    assert rerun.status_code == 200 and rerun.json()["status"] in ("pending", "queued")
    again = staff_api.post(f"/api/matches/{match.pk}/rerun/")
    assert again.status_code == 400 and "already" in again.json()["detail"]


def test_filters_reject_bad_values_with_a_400(api):
    TournamentFactory()
    assert api.get("/api/tournaments/?status=sleeping").status_code == 400
    assert api.get("/api/matches/?tournament=abc").status_code == 400
    assert api.get("/api/matches/?tournament=99999999999999999999999").status_code == 400
    assert api.get("/api/tournaments/99999999999999999999999/").status_code == 404
    far = api.get("/api/tournaments/?limit=10&offset=99999999999999999999")
    assert far.status_code == 200 and far.json()["results"] == []
    # A limit past any column's range is the largest page, not "conflicts with existing data".
    many = api.get("/api/tournaments/?limit=99999999999999999999")
    assert many.status_code == 200 and len(many.json()["results"]) == 1


def test_a_human_team_entrant_shows_its_members(staff_api, api):
    tournament = TournamentFactory()
    player = PlayerFactory(name="Ana")
    human_entrant(tournament, player)
    data = api.get(f"/api/tournaments/{tournament.pk}/").json()
    assert data["entrants"][0]["members"] == [{"id": player.pk, "name": "Ana", "kind": "human"}]


def test_the_bracket_can_show_one_round_of_a_league(staff_api, api):
    body = payload(format="round-robin", games_per_match=1)
    tid = staff_api.post("/api/tournaments/", body, format="json").json()["id"]
    staff_api.post(f"/api/tournaments/{tid}/start/")
    play_out(tid)
    full = api.get(f"/api/tournaments/{tid}/bracket/").json()
    assert full["kind"] == "rounds" and full["rounds"] == [1, 2, 3]
    one = api.get(f"/api/tournaments/{tid}/bracket/?round=2").json()
    assert [r["number"] for r in one["sections"][0]["rounds"]] == [2]
    assert api.get(f"/api/tournaments/{tid}/bracket/?round=two").status_code == 400


def test_a_stake_at_a_practice_table_is_a_400_saying_why(staff_api):
    body = payload(table={"competitive": False, "stake": 50})
    response = staff_api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert "only at a competitive table" in response.json()["table"]["stake"][0]
    assert not Tournament.objects.exists()
    # Competitive is the default: a stake alone is fine; turning competitive off later is not.
    created = staff_api.post("/api/tournaments/", payload(table={"stake": 50}), format="json")
    assert created.status_code == 201, created.json()
    url = f"/api/tournaments/{created.json()['id']}/"
    off = staff_api.patch(url, {"table": {"competitive": False}}, format="json")
    assert off.status_code == 400 and "stake" in off.json()["table"]
    practice = staff_api.patch(url, {"table": {"competitive": False, "stake": 0}}, format="json")
    assert practice.status_code == 200 and practice.json()["table"]["stake"] == 0


@pytest.mark.parametrize("metrics", [5, True, {"a": 1}, [1, 2], [{"x": 1}], "buchholz"])
def test_metrics_of_the_wrong_shape_are_a_400_not_a_500(staff_api, metrics):
    response = staff_api.post("/api/tournaments/", payload(metrics=metrics), format="json")
    assert response.status_code == 400, response.content
    assert "metrics" in response.json()


def test_metrics_as_a_list_of_known_names_are_accepted(staff_api):
    body = payload(format="round-robin", metrics=["match_points", "buchholz"])
    response = staff_api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["metrics"] == ["match_points", "buchholz"]


@pytest.mark.parametrize("endpoint", ["/api/ratings/", "/api/tournaments/"])
def test_an_unknown_variant_filter_is_a_400_naming_the_registered_ones(api, endpoint):
    response = api.get(f"{endpoint}?variant=bisca")
    assert response.status_code == 400
    message = response.json()["variant"][0]
    assert "unknown variant bisca" in message and "paulista" in message
    assert api.get(f"{endpoint}?variant=paulista").status_code == 200
