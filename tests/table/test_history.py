"""The history browser's table side: states at any move, snapshots, and what each reader reads.

Real games of all five titles are played through the session service (one
person, whose moves the game's computer player chooses, against computer
seats), on both database back ends.  Each page's state is checked against a
replay of the log from the seed, made here without the code under test.
"""

from __future__ import annotations

import pytest

import engines
from bot import movetexts, texts
from bot.history import History, browsable
from bot.sessions import Refusal
from engines.core import TABLE, config_from_options, rng_for

GUILD = 1
GAMES = ("guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole")


async def played(service, game: str, channel: int, *, moves: int, seed: int = 3):
    """A started game of ``game`` (the person ``1`` against computers) after about ``moves`` moves."""
    info = engines.get(game)
    await service.lobby.create(
        game, guild_id=GUILD, channel_id=channel, host_id=1, host_name="ann", seed=seed
    )
    for _ in range(max(1, info.min_players) - 1):
        await service.lobby.add_computer(channel, 1)
    session = (await service.lobby.start(channel, 1)).session
    module = session.engine
    seat = session.seat_of(1).seat
    i = 0
    while session.status == "active" and await service.store.history.move_count(session.id) < moves:
        if seat not in module.to_move(session.state):
            break
        legal = list(module.legal_moves(session.state, seat))
        move = module.computer_move(module.view_for(session.state, seat), legal, rng_for(seed, "h", i))
        session = (await service.play.play(channel, 1, str(move))).session
        i += 1
    return session


def truth(session, number: int):
    """The state after move ``number``, replayed from the seed here."""
    module = session.engine
    n = len(session.seats)
    state = module.new_game(config_from_options(module.Config, n, session.row.options), n, session.row.seed)
    return state


@pytest.mark.parametrize("game", GAMES)
async def test_every_page_is_the_replayed_state(service, game):
    """Every page of a game in progress is the state after that move; with snapshots no page
    replays more than K moves once the history has been read through."""
    session = await played(service, game, 100, moves=45)
    total = await service.store.history.move_count(session.id)
    assert total >= 10
    await service.store.games.set_board_message(session.id, 1, total)  # the channel was told of everything
    session = await service.core.get(session.id)
    history = History(service, every=7)
    module = session.engine
    rows = await service.store.history.moves(session.id)
    state = truth(session, 0)
    expected = [module.to_dict(state)]
    for row in rows:
        state, _ = module.apply_move(state, row.seat, module.parse_move(row.move))
        expected.append(module.to_dict(state))
    # Read backwards first: the first page replays from the start, and leaves snapshots behind.
    first = await history.page(session, total - 1)
    assert first.replayed == total - 1
    assert await service.store.history.snapshot_count(session.id) == (total - 1) // 7
    for number in reversed(range(total + 1)):
        page = await history.page(session, number)
        assert module.to_dict(page.state) == expected[number], number
        assert page.replayed < 7 or number == total
        assert (page.record is None) == (number == 0)
        if page.record is not None:
            assert page.record.move == rows[number - 1].move and page.record.number == number


async def test_snapshots_are_a_cache_the_log_overrides(service):
    """A snapshot that no longer reads is ignored and the page rebuilt from the log."""
    session = await played(service, "guacamole", 101, moves=30)
    total = await service.store.history.move_count(session.id)
    await service.store.games.set_board_message(session.id, 1, total)
    session = await service.core.get(session.id)
    history = History(service, every=5)
    good = await history.page(session, 12)
    await service.store.history.drop_snapshots(session.id)
    await service.store.history.save_snapshots(session.id, [(10, {"schema": -1, "nonsense": True})])
    again = await history.page(session, 12)
    assert again.replayed == 12
    assert session.engine.to_dict(again.state) == session.engine.to_dict(good.state)


async def test_running_game_stops_where_the_channel_was_told(service):
    """In a running game the browser offers only the moves the channel has been told of."""
    session = await played(service, "guacamole", 102, moves=12)
    total = await service.store.history.move_count(session.id)
    await service.store.games.set_board_message(session.id, 1, total - 2)
    session = await service.core.get(session.id)
    assert browsable(session, total) == total - 2
    history = History(service)
    assert (await history.page(session)).number == total - 2
    with pytest.raises(Refusal, match="still being played"):
        await history.page(session, total)
    with pytest.raises(Refusal, match="no move"):
        await history.page(session, total + 5)
    with pytest.raises(Refusal, match="no game #"):
        await history.session(session.id, GUILD + 1)
    with pytest.raises(Refusal, match="no game #"):
        await history.session(10**30, GUILD)
    await service.lobby.create("nim", guild_id=GUILD, channel_id=103, host_id=1, host_name="ann")
    lobby = await service.core.in_channel(103)
    with pytest.raises(Refusal, match="has not started"):
        await history.session(lobby.id, GUILD)


@pytest.mark.parametrize("game", GAMES)
async def test_a_page_shows_no_other_seats_secret(service, game):
    """A page's text never carries a move's notation or an event line a reader may not read:
    checked against the events' own recipients and the game's reveal rule after the game."""
    session = await played(service, game, 104, moves=40, seed=9)
    total = await service.store.history.move_count(session.id)
    await service.store.games.set_board_message(session.id, 1, total)
    session = await service.core.get(session.id)
    history = History(service)
    n = len(session.seats)
    for number in range(1, total + 1):
        page = await history.page(session, number)
        record = page.record
        for reader in [None, *range(n)]:
            text = movetexts.history_text(session, number, page.shown, record, reader)
            for event in record.events:
                private = event.visible_to is not None and (reader is None or reader not in event.visible_to)
                if private and event.text != (event.public_text or ""):
                    mine = texts.sentence(texts.name_seats(event.text, session.names()))
                    assert mine not in text, (number, reader, text)
            secret = record.seat != TABLE and record.privacy is not None and not record.privacy.public
            if (
                secret
                and reader != record.seat
                and not session.engine.readable(session.state, record.privacy, reader)
            ):
                assert f"`{record.move}`" not in text, (number, reader, text)


async def test_the_results_card_leaves_the_snapshots_of_a_finished_game(service):
    """Drawing a finished game's results card replays its log once, and that replay keeps the
    history's snapshots, so snapshotting the whole game (``warm``) replays only the last moves."""
    from bot import results
    from bot.history import SNAPSHOT_EVERY

    session = await played(service, "guacamole", 103, moves=10_000)
    assert session.status == "finished"
    total = await service.store.history.move_count(session.id)
    assert total > 2 * SNAPSHOT_EVERY
    await results.card(service, session)
    module = session.engine
    state = truth(session, 0)
    for row in await service.store.history.moves(session.id):
        state, _ = module.apply_move(state, row.seat, module.parse_move(row.move))
        kept = await service.store.history.snapshot_before(session.id, row.number)
        if row.number % SNAPSHOT_EVERY == 0 and row.number < total:
            assert kept == (row.number, module.to_dict(state))
    assert await service.store.history.snapshot_count(session.id) == (total - 1) // SNAPSHOT_EVERY
    assert await History(service).warm(session) < SNAPSHOT_EVERY
