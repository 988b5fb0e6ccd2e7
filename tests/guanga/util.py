"""Helpers for building rigged Guanga states in tests."""

from __future__ import annotations

from engines import guanga as G
from engines.guanga import data as D
from engines.guanga.rules import CELL_INDEX, Mode, patch_counts, patch_total


def kind(colour: str, symbol: str) -> int:
    return D.COLOURS.index(colour) * 5 + D.SYMBOLS.index(symbol)


# Patches by colour and symbol, for rigging.
RED_CH = kind("red", "chakana")
RED_IN = kind("red", "inti")
BLU_IN = kind("blue", "inti")
BLU_AM = kind("blue", "amaru")
YEL_AM = kind("yellow", "amaru")
YEL_KU = kind("yellow", "kuntur")
GRN_RO = kind("green", "rombo")
GRN_KU = kind("green", "kuntur")


def cell(name: str) -> int:
    return CELL_INDEX[name.upper()]


def game(players: int = 2, mode: str = "beginner", stoppers: bool = False, seed: int = 1, keep: bool = True):
    """A new game; with orders, every seat keeps its first dealt order."""
    cfg = G.Config(players=players, mode=Mode(mode), stoppers=stoppers)
    s = G.new_game(cfg, players, seed)
    if keep and s.phase == "order":
        for seat in range(players):
            s, _ = G.apply_move(s, seat, G.parse_move(f"keep {s.orders_dealt[seat][0]}"))
    return s


def take_from_supply(s, k: int) -> None:
    """Remove one patch of kind k from the pile or bag (to keep patches conserved when rigging)."""
    for zone in (s.pile, s.bag):
        if k in zone:
            zone.remove(k)
            return
    for i, b in enumerate(s.basket):
        if b == k:
            s.basket[i] = None
            return
    raise AssertionError(f"no spare patch of kind {k}")


def put(s, seat: int, cells: dict[str, list[int] | int]) -> None:
    """Stack patches on cells (taking them from the supply so the count is conserved)."""
    for name, kinds in cells.items():
        if isinstance(kinds, int):
            kinds = [kinds]
        for k in kinds:
            take_from_supply(s, k)
            s.guangas[seat][cell(name)].append(k)


def clear(s, seat: int) -> None:
    """Empty a guanga into the pile's bottom (keeps the count)."""
    for st in s.guangas[seat]:
        s.pile[:0] = st
        st.clear()


def set_basket(s, kinds: list[int | None]) -> None:
    """Rig the basket (old basket goes to the pile's bottom)."""
    s.pile[:0] = [k for k in s.basket if k is not None]
    s.basket = [None] * 8
    for i, k in enumerate(kinds):
        if k is not None:
            take_from_supply(s, k)
            s.basket[i] = k


def set_market(s, cards: list[str]) -> None:
    """Put exactly these cards in the market slots (others go back into their decks)."""
    for old in s.market:
        if old is not None:
            s.decks[old[0]].insert(0, old)
    s.market = [None] * len(s.market)
    for cid in cards:
        s.decks[cid[0]].remove(cid)
        slot = next(i for i, lv in enumerate(s.market_levels) if lv == cid[0] and s.market[i] is None)
        s.market[slot] = cid


def conserved(s) -> bool:
    return sum(patch_counts(s)) == patch_total(s) and all(
        c == patch_total(s) // D.KINDS for c in patch_counts(s)
    )


def play(s, seat: int, *texts: str):
    events = []
    for t in texts:
        s, ev = G.apply_move(s, seat, G.parse_move(t))
        events.extend(ev)
    return s, events


def fill(s, seat: int, skip: tuple[str, ...] = (), kinds: list[int] | None = None) -> None:
    """Put one patch on every empty cell of a guanga except ``skip``, cycling through ``kinds``."""
    from engines.guanga.shapes import CELL_NAMES

    kinds = kinds or list(range(D.KINDS))
    i = seat
    for name in CELL_NAMES:
        if name in skip or s.guangas[seat][cell(name)]:
            continue
        for _ in range(len(kinds)):
            k = kinds[i % len(kinds)]
            i += 1
            try:
                put(s, seat, {name: k})
                break
            except AssertionError:
                continue


def artisan_claim_over_the_bare_mother():
    """Artisan: seat 0 claims A01 Chullo in red on C2 C3 C4, C3 holding only its mother patch."""
    s = game(2, "artisan")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02", "B01", "B02"])
    put(s, 0, {"C2": RED_IN, "C4": RED_IN})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    s, _ = play(s, 0, "P1B3", "P2B4", "C A01 red C2C3C4")
    assert s.phase == "return" and len(s.guangas[0][D.CENTRE]) == 1
    return s


def apprentice_claim_of_a01():
    """Apprentice: seat 0 about to place on A3 and B3 and claim A01 in red on A1 A2 A3; the state
    and the market slot A01 stands in."""
    s = game(2, "apprentice")
    set_market(s, ["A01", "A02", "A03", "A04", "G01", "G02", "G03", "M01", "M02"])
    clear(s, 0)
    put(s, 0, {"C3": RED_CH, "A1": RED_IN, "A2": RED_IN})
    set_basket(s, [RED_CH, BLU_IN, GRN_RO, RED_IN, BLU_AM, GRN_KU, RED_CH, YEL_AM])
    return s, s.market.index("A01")
