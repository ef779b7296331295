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
from django.db.models import Sum

from players.models import Player
from tables.models import ChipTransfer, Wallet

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


def wallet_of(player: Player) -> Wallet:
    """The person's wallet, made on first need with the starting chips."""
    wallet, _ = Wallet.objects.get_or_create(player=player)
    return wallet


def locked_wallets(ids: Iterable[int]) -> dict[int, Wallet]:
    """The people's wallets by player id (made first where missing), locked in id order: two
    games settling at once never deadlock, and a stake is checked against a balance nobody
    else changes meanwhile. One query when they all exist (every table opened, dealt or
    settled after a person's first): the wallets missing are made, and locked, after."""
    ids = set(ids)
    wallets = lock_wallets(ids)
    missing = ids - wallets.keys()
    if missing:
        # Locked after the others, out of id order: harmless, a wallet missing a moment ago
        # being locked by no other transaction (but one making it at that very moment, on a
        # person's first table, which the insert waits for).
        Wallet.objects.bulk_create(
            [Wallet(player_id=pk) for pk in sorted(missing)],
            ignore_conflicts=True,  # made once, whoever first
        )
        wallets = dict(sorted({**wallets, **lock_wallets(missing)}.items()))
    return wallets


def lock_wallets(ids: set[int]) -> dict[int, Wallet]:
    """The wallets of these players that exist, locked in id order, by player id."""
    return {
        w.player_id: w
        for w in Wallet.objects.select_for_update()
        .select_related("player")
        .filter(player_id__in=ids)
        .order_by("player_id")
    }


def apply(
    movements: list[Movement], *, match_id: int | None = None, game_index: int | None = None
) -> None:
    """Write the movements to the ledger and the balances, in the caller's transaction."""
    wallets = locked_wallets(m.player_id for m in movements if m.player_id is not BANK)
    rows = []
    for m in movements:
        if m.amount == 0:
            continue
        balance = None
        if m.player_id is not BANK:
            wallet = wallets[m.player_id]
            if wallet.chips + m.amount < 0:
                raise NotEnoughChips(
                    f"{wallet.player.name} has {wallet.chips} chips, not {-m.amount}"
                )
            wallet.chips += m.amount
            balance = wallet.chips
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
    Wallet.objects.bulk_update(wallets.values(), ["chips"])
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
    wallet = locked_wallets([player_id])[player_id]
    lost = min(stake, wallet.chips)
    note = "abandoned a game ended amicably"
    apply(
        [
            Movement(player_id, -lost, ChipTransfer.Kind.FORFEIT, note),
            Movement(BANK, lost, ChipTransfer.Kind.FORFEIT, f"{wallet.player.name} {note}"),
        ],
        match_id=match_id,
        game_index=game_index,
    )
    return lost


def set_balance(player: Player, chips: int, note: str) -> None:
    """Staff set a balance: the difference is written to the ledger like any movement."""
    with transaction.atomic():
        current = locked_wallets([player.pk])[player.pk].chips
        apply([Movement(player.pk, chips - current, ChipTransfer.Kind.ADJUST, note)])


def bank_balance() -> int:
    total = ChipTransfer.objects.filter(player__isnull=True).aggregate(total=Sum("amount"))
    return total["total"] or 0
