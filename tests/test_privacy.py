"""What is public, engine side: every game marks its moves and its views hide the mover's secrets.

The table-side surfaces are checked in tests/table/test_public.py and, for all
five games at once, in tests/table/test_secrets.py.
"""

from __future__ import annotations

import pytest

import engines
import engines.guacamole as GC
import engines.guanga as G
import engines.nowa_gwinea as NG
import engines.tiwanaku as T
from engines.core import AT_END, NEVER, PUBLIC, Privacy, Said, at_round_end, can_read, in_words, jsonable
from tests.tiwanaku.helpers import fixed
from tests.tiwanaku.helpers import play as tplay

GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole", "nim")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_the_privacy_contract(name):
    """move_privacy, readable and summary exist in every engine, the test game included."""
    module = engines.get(name).load()
    for attr in ("move_privacy", "readable", "summary"):
        assert callable(getattr(module, attr, None)), f"{name} lacks {attr}"
    config = module.Config(players=2)
    state = module.new_game(config, 2, 5)
    (seat, *_) = sorted(module.to_move(state))
    move = next(iter(module.legal_moves(state, seat)))
    mark = module.move_privacy(state, seat, move)
    assert isinstance(mark, Privacy) and Privacy.from_dict(mark.to_dict()) == mark
    assert module.readable(state, mark, seat)
    assert isinstance(module.summary(module.view_for(state, seat)), str | Said)
    assert module.summary(module.view_for(state, None)) == ""


def test_can_read_reveal_points():
    """Public moves are read by all; secrets by their owner, and by all once their point has passed."""
    assert can_read(PUBLIC, None, over=False)
    end = Privacy(owner=1, until=AT_END)
    assert (
        can_read(end, 1, over=False)
        and not can_read(end, 0, over=False)
        and not can_read(end, None, over=False)
    )
    assert can_read(end, None, over=True)
    never = Privacy(owner=1, until=NEVER)
    assert not can_read(never, 0, over=True) and can_read(never, 1, over=True)
    r3 = Privacy(owner=0, until=at_round_end(3))
    assert not can_read(r3, 1, over=False, rounds_ended=2)
    assert can_read(r3, 1, over=False, rounds_ended=3) and can_read(r3, None, over=True)
    assert not can_read(Privacy(owner=0, until="round:x"), 1, over=False, rounds_ended=9)


def test_tiwanaku_peek_is_hidden_from_others_views():
    """After a peek, other seats' and the spectator's views say a peek happened, never where."""
    s = fixed()
    s.cubes[0] = [1, 1, 1, 1]
    s2, _ = tplay(s, 0, "peek:C2")
    assert T.view_for(s2, 0).last == "peek:C2"
    for reader in (1, None):
        view = T.view_for(s2, reader)
        assert view.last == "peek" and "C2" not in repr(jsonable(view.last))
        assert view.last_cells == ()
    mark = T.move_privacy(s, 0, T.parse_move("peek:C2"))
    assert mark.owner == 0 and mark.until == NEVER
    # Never revealed, even when the game is over.
    s2.phase = "over"
    assert T.view_for(s2, 1).last == "peek"


def test_guanga_kept_order_is_hidden_until_the_end():
    """keep O5 reads "keep ?" to the others until the game ends; the keeper reads it."""
    s = G.new_game(G.Config(players=3, mode=G.Mode.APPRENTICE), 3, 4)
    order = s.orders_dealt[1][0]
    s2, _ = G.apply_move(s, 1, G.parse_move(f"keep {order}"))
    assert G.view_for(s2, 1).last == f"keep {order}"
    assert G.view_for(s2, 0).last == "keep ?" and G.view_for(s2, None).last == "keep ?"
    for reader in (0, 2, None):
        assert order not in repr(jsonable(G.view_for(s2, reader)))
    mark = G.move_privacy(s, 1, G.parse_move(f"keep {order}"))
    assert (mark.owner, mark.until) == (1, AT_END)
    s2.finished = True
    assert G.readable(s2, mark, 0) and G.view_for(s2, 0).last == f"keep {order}"


def test_nowa_gwinea_huts_are_secret_until_the_round_ends():
    """A hut placed in round 1 is readable by the others once round 1 has ended, not before."""
    s = NG.new_game(NG.Config(players=2), 2, 3)
    move = next(m for m in NG.legal_moves(s, 0) if isinstance(m, NG.Place))
    mark = NG.move_privacy(s, 0, move)
    assert mark.owner == 0 and mark.until == at_round_end(1) and mark.quiet
    s2, _ = NG.apply_move(s, 0, move)
    assert NG.readable(s2, mark, 0) and not NG.readable(s2, mark, 1) and not NG.readable(s2, mark, None)
    assert str(move) not in repr(jsonable(NG.view_for(s2, 1)))
    s3, _ = NG.apply_move(s2, 0, NG.parse_move("done"))
    s4, _ = NG.apply_move(s3, 1, NG.parse_move("done"))
    assert s4.round == 2
    assert NG.readable(s4, mark, 1) and NG.readable(s4, mark, None)
    assert NG.move_privacy(s4, 1, NG.parse_move("done")) == PUBLIC


def test_summaries_show_only_the_seats_own_holdings():
    """The text summary is built from the seat's view: its own hand, order, village."""
    gs = G.new_game(G.Config(players=2, mode=G.Mode.APPRENTICE), 2, 4)
    gs, _ = G.apply_move(gs, 0, G.parse_move(f"keep {gs.orders_dealt[0][0]}"))
    text = in_words(G.summary(G.view_for(gs, 0)))
    assert gs.orders_dealt[0][0] in text
    assert gs.orders_dealt[1][0] not in text
    c = GC.new_game(GC.Config(players=3), 3, 9)
    mine = str(GC.summary(GC.view_for(c, 1)))
    assert all(code in mine for code in GC.view_for(c, 1).hand)


def test_a_moves_lines_read_as_sentences_in_one_line():
    """A move told in several lines, shown in one (the log of a move whose notation is hidden):
    sentences follow each other with a space, never ".;"."""
    from bot.public import Seen

    seen = Seen(0, None, ("{p0} calls Gwinea!", "The round ends.", "{p1} scores 3"), "?", False)
    assert seen.summary() == "{p0} calls Gwinea! The round ends. {p1} scores 3"
    assert Seen(0, None, ("{p0} builds", "{p0} covers a water hole"), "?", False).summary() == (
        "{p0} builds; {p0} covers a water hole"
    )
