"""Which matches go together in one message to the workers (a batch), from what is known of
each match: its tournament, its games and its two bots. Pure: the caller reads the rows
(`tournaments.dispatch.task_batches`) or knows them (`tournaments.scheduling`, which queues the
matches it creates)."""

from __future__ import annotations

from django.conf import settings

BATCH_FIELDS = (
    "id",
    "tournament_id",
    "tournament__games_per_match",
    "entrant_a__bot__kind",
    "entrant_a__bot__plugin",
    "entrant_b__bot__kind",
    "entrant_b__bot__plugin",
)


def batches_of(match_ids: list[int], rows) -> list[list[int]]:
    """The matches as the messages that carry them: short matches of one tournament go several
    to a message, about TRUCO_TASK_GAMES games in all (TRUCO_TASK_QUICK_GAMES between built-in
    bots of TRUCO_INSTANT_BOT_PLUGINS, whose games take milliseconds: there a task's claim and
    record cost more than its games), and a round's matches in at least TRUCO_TASK_SPREAD
    messages (so that as many worker processes share it); a match of that many games or more
    goes alone. `rows`: each match's BATCH_FIELDS."""
    # Trusted too: an untrusted plugin plays in the jail, a process per seat per match.
    instant = settings.TRUCO_INSTANT_BOT_PLUGINS & set(settings.TRUCO_TRUSTED_BOT_PLUGINS)
    known = {}
    for match_id, tournament_id, games, *bots in rows:
        quick = all(kind == "plugin" and plugin in instant for kind, plugin in (bots[:2], bots[2:]))
        known[match_id] = (tournament_id, games, quick)
    groups: dict[tuple[int, int, bool] | None, list[int]] = {}
    for match_id in match_ids:
        groups.setdefault(known.get(match_id), []).append(match_id)
    batches = []
    for key, ids in groups.items():
        per_match = max(1, key[1] if key else 1)
        budget = settings.TRUCO_TASK_QUICK_GAMES if key and key[2] else settings.TRUCO_TASK_GAMES
        size = max(
            1,
            min(-(-budget // per_match), -(-len(ids) // max(1, settings.TRUCO_TASK_SPREAD))),
        )
        batches += [ids[i : i + size] for i in range(0, len(ids), size)]
    return batches
