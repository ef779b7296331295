"""Checks of a table's settings, with messages that say what would be valid."""

from __future__ import annotations


def check_table_settings(competitive: bool, stake: int) -> dict[str, list[str]]:
    """RULES.md section 5: chips move only at a competitive table, so a stake at a practice
    table would never be paid; refused rather than silently ignored."""
    if stake and not competitive:
        return {
            "stake": [
                f"a stake ({stake} chips) is played only at a competitive table: "
                "set competitive to true, or the stake to 0 for practice"
            ]
        }
    return {}
