"""A move starts from the copy of its game the session service holds, without reading it.

Every change to a session's row or seats that a move depends on bumps the session's version,
so a copy left behind by a change made elsewhere (another process: here a second service on
the same database) is refused at the commit and never written; the move is then judged on the
game read afresh: a button from before the change is refused as stale, and a move the change
made wrong is refused, with nothing written either way.
"""

from __future__ import annotations

import pytest

from bot.sessions import Damaged, SessionService, StaleMove
from bot.storage import StaleVersion
from bot.time import gameclock as gc
from engines.core import NotYourTurn
from tests.support import nim

CH = 321
GUILD = 1


async def nim_game(service: SessionService, channel: int = CH, seed: int = 7):
    await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=channel, host_id=1, host_name="ann", seed=seed
    )
    await service.lobby.join(channel, 2, "bob")
    return (await service.lobby.start(channel, 1)).session


def to_move(session) -> int:
    (seat,) = session.to_move()
    return session.by_seat(seat).user_id


def a_move(session) -> str:
    (seat,) = session.to_move()
    return str(nim.legal_moves(session.state, seat)[0])


class Commits:
    """The versions the service's move commits were made at, and which of them were refused."""

    def __init__(self, store):
        self.made: list[tuple[int, bool]] = []
        self.store, self.real = store, store.games.play_moves
        store.games.play_moves = self

    async def __call__(self, session_id, expected_version, *args, **kwargs):
        try:
            row = await self.real(session_id, expected_version, *args, **kwargs)
        except StaleVersion:
            self.made.append((expected_version, False))
            raise
        self.made.append((expected_version, True))
        return row

    def undo(self) -> None:
        self.store.games.play_moves = self.real


async def test_every_change_a_move_depends_on_bumps_the_version(store):
    """Seats added and removed, the start, a seat given to the computer, the timer, the clock,
    damage and the end each bump the version; board and lobby messages and a deadline moved on
    with the clocks as they were do not."""
    sid = await store.games.create_session(
        game="nim", guild_id=GUILD, channel_id=CH, host_id=1, host_name="a", options={}, max_players=3, seed=1
    )

    async def version() -> int:
        return (await store.games.session(sid)).version

    seen = [await version()]

    async def bumped(change) -> None:
        await change
        seen.append(await version())
        assert seen[-1] == seen[-2] + 1, change

    async def kept(change) -> None:
        await change
        assert await version() == seen[-1], change

    await bumped(store.games.add_seat(sid, 2, "b", limit=3))
    await bumped(store.games.add_seat(sid, None, "c", limit=3, computer=True))
    await bumped(store.games.remove_seat(sid, 2))
    await kept(store.games.set_lobby_message(sid, 99))
    await bumped(store.games.start(sid, {0: 0, 1: 1}, {}, {"piles": [1]}))
    await bumped(store.games.set_seat_flags(sid, 1, computer=True, resigned=False))
    await bumped(store.games.set_clock(sid, "timer:1h", None, 3600))
    await bumped(store.games.set_clock(sid, None, None, None))
    await bumped(store.games.set_clock(sid, "move:1h", {"banks": [1]}, 3600))
    await kept(store.games.set_clock(sid, "move:1h", {"banks": [1]}, 1800))  # the deadline moved on alone
    await bumped(store.games.set_clock(sid, "move:1h", {"banks": [2]}, 1800))
    await bumped(store.games.set_clock(sid, "move:2h", {"banks": [2]}, 1800))
    await bumped(store.games.set_clock(sid, None, None, None))
    await kept(store.games.set_board_message(sid, 100, 0))
    await bumped(store.games.mark_damaged(sid, "broken"))
    await kept(store.games.mark_damaged(sid, "broken again"))  # marked once
    await bumped(store.games.finish(sid, status="abandoned", reason="x", outcome=None, results=[]))


async def test_a_copy_behind_a_move_made_elsewhere_never_commits(store):
    """Ann moves through another process: this one's copy says it is still her turn.  Her second
    move is refused at the commit and then on the fresh read (not her turn), nothing written; Bob,
    whose turn the copy does not show, is judged on the fresh read and his move goes through."""
    here, there = SessionService(store), SessionService(store)
    session = await nim_game(here)
    ann = to_move(session)
    await there.play.play(CH, ann, a_move(session))
    commits = Commits(store)
    try:
        with pytest.raises(NotYourTurn):
            await here.play.play(CH, ann, a_move(session))
        assert commits.made == [(session.version, False)]  # the copy's commit, refused
        assert len(await store.history.moves(session.id)) == 1
        fresh = await here.core.get(session.id)
        bob = to_move(fresh)
        result = await here.play.play(CH, bob, a_move(fresh))
        assert commits.made[-1] == (fresh.version, True)
        assert result.session.version == fresh.version + 1
        assert len(await store.history.moves(session.id)) == 2
    finally:
        commits.undo()


@pytest.mark.parametrize("change", ["timer", "clock", "seat"])
async def test_a_button_from_before_a_change_made_elsewhere_is_refused(store, change):
    """Whatever another process changed (the timer, the clock, a seat given to the computer), a
    button posted before it is refused as stale and nothing is written, though this process's
    copy was at the button's version."""
    here, there = SessionService(store), SessionService(store)
    session = await nim_game(here)
    user = to_move(session)
    if change == "timer":
        await there.clocks.set_timer(CH, 1, 3600, can_manage=False)
    elif change == "clock":
        await there.clocks.set_clock(CH, 1, "move:1h", can_manage=False)
    else:
        other = 1 if user == 2 else 2
        await store.games.set_seat_flags(
            session.id, session.seat_of(other).seat, computer=True, resigned=False
        )
    after = (await store.games.session(session.id)).version
    assert after > session.version
    commits = Commits(store)
    try:
        with pytest.raises(StaleMove, match="board changed"):
            await here.play.play(CH, user, a_move(session), expected_version=session.version)
    finally:
        commits.undo()
    assert all(not accepted for _, accepted in commits.made)
    assert await store.history.moves(session.id) == []
    assert (await store.games.session(session.id)).version == after


async def test_a_game_damaged_elsewhere_takes_no_move(store):
    """Another process marked the game damaged: this process's copy is refused at the commit and
    the move is refused as damaged; nothing is written."""
    here = SessionService(store)
    session = await nim_game(here)
    assert await store.games.mark_damaged(session.id, "its saved state cannot be read")
    with pytest.raises(Damaged):
        await here.play.play(CH, to_move(session), a_move(session))
    assert await store.history.moves(session.id) == []


async def test_a_clock_set_elsewhere_is_what_the_move_runs(store, clock):
    """Another process gave the game a clock: the move is committed from the game read afresh,
    with the clock running for the next player, not from the copy without a clock."""
    here, there = SessionService(store), SessionService(store)
    session = await nim_game(here)
    await there.clocks.set_clock(CH, 1, "move:1h", can_manage=False)
    fresh = await there.core.get(session.id)
    commits = Commits(store)
    try:
        result = await here.play.play(CH, to_move(session), a_move(session))
    finally:
        commits.undo()
    assert commits.made == [(session.version, False), (fresh.version, True)]
    (nxt,) = result.session.to_move()
    assert gc.running(result.session.banks) == [nxt]
    stored = await store.games.session(session.id)
    assert stored.clock_state == result.session.row.clock_state and stored.version == fresh.version + 1


async def test_a_move_to_a_channel_whose_game_ended_elsewhere_goes_to_its_new_game(store):
    """This process last saw game one running in the channel; another abandoned it and opened
    game two there.  A move sent to the channel goes to game two."""
    here, there = SessionService(store), SessionService(store)
    first = await nim_game(here)
    await there.seats.abandon(CH, 1, can_manage=True)
    second = await nim_game(there, seed=9)
    result = await here.play.play(CH, to_move(second), a_move(second))
    assert result.session.id == second.id
    assert len(await store.history.moves(second.id)) == 1 and await store.history.moves(first.id) == []
