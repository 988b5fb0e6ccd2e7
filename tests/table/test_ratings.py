"""League ratings: updated with a finished game's results, per server and game."""

from __future__ import annotations

import asyncio

from bot.ratings import START_MU, Standing, rate, shown

GUILD = 9


async def play_nim(service, channel, users, seed=1):
    await service.lobby.create(
        "nim", guild_id=GUILD, channel_id=channel, host_id=users[0], host_name=f"u{users[0]}", seed=seed
    )
    for uid in users[1:]:
        await service.lobby.join(channel, uid, f"u{uid}")
    session = (await service.lobby.start(channel, users[0])).session
    while session.status == "active":
        (seat,) = session.to_move()
        uid = session.by_seat(seat).user_id
        session = (
            await service.play.play(channel, uid, (await service.play.legal_moves(channel, uid))[-1])
        ).session
    return session


def test_rate_moves_winner_up_and_loser_down():
    """The winner's mu rises, the loser's falls, and both grow more certain."""
    new = {r.user_id: r for r in rate([Standing(1, "a", 1), Standing(2, "b", 2)])}
    assert new[1].mu > START_MU > new[2].mu and new[1].won and not new[2].won
    assert shown(new[1].mu, new[1].sigma) > shown(new[2].mu, new[2].sigma)
    assert rate([Standing(1, "a", 1)]) == []


async def test_finished_game_updates_ratings(service):
    """After a two-person game both have one game rated; the winner has the win and the higher rating."""
    session = await play_nim(service, 1, [10, 20])
    assert session.row.outcome is not None
    board = await service.store.ratings.leaderboard(GUILD, "nim")
    assert [r.games for r in board] == [1, 1]
    winner_id = session.by_seat(session.state.winner).user_id
    assert board[0].user_id == winner_id and board[0].wins == 1 and board[1].wins == 0
    assert board[0].mu > board[1].mu


async def test_games_with_one_person_are_not_rated(service):
    """A person against the computer, or alone, leaves ratings alone."""
    await service.lobby.create("nim", guild_id=GUILD, channel_id=2, host_id=10, host_name="a", seed=3)
    await service.lobby.add_computer(2, 10)
    session = (await service.lobby.start(2, 10)).session
    while session.status == "active":
        session = (await service.play.play(2, 10, (await service.play.legal_moves(2, 10))[0])).session
    assert await service.store.ratings.leaderboard(GUILD, "nim") == []


async def test_abandoned_games_are_not_rated(service):
    """Abandoning records no result and no rating."""
    await service.lobby.create("nim", guild_id=GUILD, channel_id=3, host_id=10, host_name="a")
    await service.lobby.join(3, 20, "b")
    await service.lobby.start(3, 10)
    await service.seats.abandon(3, 10, can_manage=False)
    assert await service.store.ratings.leaderboard(GUILD, "nim") == []


async def test_games_ending_together_both_count(service):
    """Two games of the same players ending at once: neither rating update is lost."""
    from bot.storage.profiles import ServerGates

    # Six games of the same two people at once: past the default cap of 3 running games per person.
    await service.store.profiles.set_server_gates(GUILD, ServerGates(cap=0))
    await asyncio.gather(*(play_nim(service, 10 + i, [10, 20], seed=i) for i in range(6)))
    board = await service.store.ratings.leaderboard(GUILD, "nim")
    assert sorted(r.games for r in board) == [6, 6]
    assert sum(r.wins for r in board) == 6
    assert set(await service.store.ratings.ratings_of(GUILD, 10)) == {"nim"}
