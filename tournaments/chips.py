"""Chips (RULES.md section 5): the pot of a staked game and the ledger every movement is written
to, so that a balance can always be explained.

Every seat of a staked game puts `stake` chips in the pot: a human from their own balance (all
they have, if that is less), any other seat (a bot, or a robot filling a seat) from the bank,
which backs the house's players. The winning seats share three quarters of the pot equally; the
bank keeps the rest. A human winner's share goes to them, a bot's back to the bank. So a staked
game against a bot is an even bet, bots have no balance to run dry, and no chip is created or
lost: the rows of one game sum to zero.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from django.db import transaction

from tournaments.models import ChipTransfer, Player

BANK = None  # the account of ChipTransfer rows without a player
WINNERS_SHARE = (3, 4)  # the bank keeps a quarter of each pot


class NotEnoughChips(ValueError):
    pass


@dataclass(frozen=True)
class Movement:
    player_id: int | None  # BANK for the bank
    amount: int
    kind: str
    note: str = ""


def split_pot(stakes: Mapping[int, int], winners: Collection[int]) -> tuple[dict[int, int], int]:
    """(chips won by each winning seat, the bank's share) of a pot of `stakes` (seat: chips).
    Winners share three quarters equally, rounded down to a whole chip; the odd chips stay with
    the bank. Without a winner every seat takes its stake back."""
    if not winners:
        return dict(stakes), 0
    pot = sum(stakes.values())
    num, den = WINNERS_SHARE
    each = pot * num // den // len(winners)
    shares = {seat: each for seat in winners}
    return shares, pot - each * len(winners)


def locked_players(ids: Iterable[int]) -> dict[int, Player]:
    """The players' rows, locked in id order (two games settling at once never deadlock)."""
    return {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=set(ids)).order_by("pk")
    }


def apply(
    movements: list[Movement], *, match_id: int | None = None, game_index: int | None = None
) -> None:
    """Write the movements to the ledger and the balances, in the caller's transaction."""
    players = locked_players(m.player_id for m in movements if m.player_id is not BANK)
    rows = []
    for m in movements:
        if m.amount == 0:
            continue
        balance = None
        if m.player_id is not BANK:
            player = players[m.player_id]
            if player.chips + m.amount < 0:
                raise NotEnoughChips(f"{player.name} has {player.chips} chips, not {-m.amount}")
            player.chips += m.amount
            balance = player.chips
        rows.append(
            ChipTransfer(
                player_id=m.player_id,
                amount=m.amount,
                balance_after=balance,
                kind=m.kind,
                match_id=match_id,
                game_index=game_index,
                note=m.note[:200],
            )
        )
    Player.objects.bulk_update(players.values(), ["chips"])
    ChipTransfer.objects.bulk_create(rows)


def game_movements(
    stake: int,
    seats: Mapping[int, int | None],
    winners: Collection[int],
    balances: Mapping[int, int],
) -> tuple[list[Movement], int, int]:
    """(ledger movements, pot, bank's share) of one staked game. `seats` maps each seat to its
    human player (None: a seat the bank backs); `balances` are the humans' chips now."""
    stakes = {
        seat: stake if player is BANK else min(stake, balances[player])
        for seat, player in seats.items()
    }
    shares, bank_share = split_pot(stakes, winners)
    moves: list[Movement] = []
    backed = won_back = 0
    for seat, player in sorted(seats.items()):
        if player is BANK:
            backed += stakes[seat]
            won_back += shares.get(seat, 0)
            continue
        moves.append(Movement(player, -stakes[seat], ChipTransfer.Kind.STAKE, f"seat {seat}"))
        if shares.get(seat):
            moves.append(Movement(player, shares[seat], ChipTransfer.Kind.WIN, f"seat {seat}"))
    if backed:
        moves.append(Movement(BANK, -backed, ChipTransfer.Kind.STAKE, "the robots' stakes"))
    if won_back:
        moves.append(Movement(BANK, won_back, ChipTransfer.Kind.WIN, "the robots' winnings"))
    if bank_share:
        moves.append(Movement(BANK, bank_share, ChipTransfer.Kind.CUT, "the bank's quarter"))
    return moves, sum(stakes.values()), bank_share


def forfeit(player_id: int, stake: int, *, match_id: int, game_index: int) -> int:
    """An abandoning player's stake of a game ended amicably goes to the bank; the chips lost."""
    player = locked_players([player_id])[player_id]
    lost = min(stake, player.chips)
    note = "abandoned a game ended amicably"
    apply(
        [
            Movement(player_id, -lost, ChipTransfer.Kind.FORFEIT, note),
            Movement(BANK, lost, ChipTransfer.Kind.FORFEIT, f"{player.name} {note}"),
        ],
        match_id=match_id,
        game_index=game_index,
    )
    return lost


def set_balance(player: Player, chips: int, note: str) -> None:
    """Staff set a balance: the difference is written to the ledger like any movement."""
    with transaction.atomic():
        current = locked_players([player.pk])[player.pk].chips
        apply([Movement(player.pk, chips - current, ChipTransfer.Kind.ADJUST, note)])
    player.chips = chips


def bank_balance() -> int:
    from django.db.models import Sum

    total = ChipTransfer.objects.filter(player__isnull=True).aggregate(total=Sum("amount"))
    return total["total"] or 0
