"""A secret move taken back by consent stays its owner's for good: the round's end, which shows
every hut built in it, does not show a hut that was taken back (nor does the game's end, or an
export), while the huts that stood are shown as before."""

from __future__ import annotations

from bot import export, public
from bot.history import History
from bot.undo import Asked, UndoService

GUILD = 1
CHANNEL = 310


async def test_a_hut_taken_back_is_never_shown_to_the_others(service):
    await service.lobby.create(
        "nowa_gwinea", guild_id=GUILD, channel_id=CHANNEL, host_id=1, host_name="ann", seed=5
    )
    await service.lobby.join(CHANNEL, 2, "bob")
    session = (await service.lobby.start(CHANNEL, 1)).session
    history = History(service, every=3)
    undo = UndoService(service, history)
    builds = [m for m in await service.play.legal_moves(CHANNEL, 1) if m != "done"]
    first, second = builds[0], builds[-1]
    await service.play.play(CHANNEL, 1, first)
    asked = await undo.ask(CHANNEL, 1)
    assert isinstance(asked, Asked)
    await undo.answer(asked.request.session_id, asked.request.version, 2, True)
    await service.play.play(CHANNEL, 1, second)
    session = await service.core.get(session.id)
    round_before = session.state.round
    while session.status == "active" and session.state.round == round_before:
        for user in (1, 2):
            if session.seat_of(user).seat in session.to_move():
                legal = await service.play.legal_moves(CHANNEL, user)
                move = "done" if "done" in legal else legal[0]
                session = (await service.play.play(CHANNEL, user, move)).session
                break
    assert session.state.round != round_before or session.status != "active"  # the huts are shown now

    records = await service.logbook.log(session)
    taken, stood = (next(r for r in records if r.move == m and r.seat == 0) for m in (first, second))
    assert taken.taken_back and not stood.taken_back
    engine = session.engine
    for reader in (None, 1):  # the channel and bob
        assert public.notation(engine, session.state, stood, reader) == second
        assert public.notation(engine, session.state, taken, reader) is None
    assert public.notation(engine, session.state, taken, 0) == first  # ann still reads her own

    await service.logbook.told(session, 999, records[-1].number)  # the channel was told of it all
    session = await service.core.get(session.id)
    page = await history.page(session, taken.number)
    assert page.record is not None and page.record.taken_back
    data = await export.export_session(service, session)
    shown = [m["move"] for m in data["moves"] if m.get("seat") == 0]
    assert second in shown and first not in shown
