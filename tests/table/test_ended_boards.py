"""The last board of a game the table ended before its rules did (a resignation, an abandon):
its header says how the game ended, never that someone is to play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import alt, texts
from bot.describe import described
from engines.core import said
from languages import language
from tests.i18n.test_spanish_boards import drawn_texts

GAMES = ["guacamole", "guanga", "tiwanaku", "pachakuna", "nowa_gwinea"]
TO_PLAY = {"en": ("to play",), "es": ("le toca", "les toca")}  # the header's words for whose turn


async def two_people(service, game: str, channel: int):
    await service.lobby.create(game, guild_id=1, channel_id=channel, host_id=1, host_name="ana", seed=3)
    await service.lobby.join(channel, 2, "bo")
    return (await service.lobby.start(channel, 1)).session


def header_texts(session, ended: str | None, code: str) -> list[str]:
    renderer = session.info.load_renderer()
    view = session.engine.view_for(session.state, None)
    with drawn_texts() as (found, _):
        renderer.render(view, names=session.names(), language=code, ended=ended)
    return [t.lower() for t in found]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("code", ["en", "es"])
async def test_the_last_board_of_a_resigned_or_abandoned_game_says_how_it_ended(service, game, code):
    t = language(code)
    running = await two_people(service, game, 5)
    assert texts.ended_early(running, t) is None  # a running game: whose turn, as drawn by the game
    await service.seats.resign(5, 2)
    resigned = await service.core.get(running.id)
    assert resigned.status == "finished" and resigned.engine.outcome(resigned.state) is None
    said = texts.ended_early(resigned, t)
    assert said is not None and "ana" in said, said  # the winner, as bo resigned
    drawn = header_texts(resigned, said, code)
    before = header_texts(resigned, None, code)  # as the game's own view would draw it
    # The header: the title, the round or turn, then its status line, which now says the end.
    assert drawn[:2] == before[:2] and drawn[2] == said.lower() != before[2], (before, drawn)
    assert not [x for x in drawn if any(w in x for w in TO_PLAY[code])], drawn
    # The board in words says it first too, and the picture's alt text in the same words.
    assert described(resigned, None, t)[0].startswith(f"**{said}**")
    assert not described(running, None, t)[0].startswith(f"**{said}**")  # as it was while running
    assert alt.plain(said, resigned.names()) in alt.board(resigned, None, None, t)
    assert alt.plain(said, resigned.names()) in alt.board(resigned, 0, None, t)

    abandoned = await two_people(service, game, 6)
    abandoned = await service.seats.abandon(6, 1, can_manage=True)
    said = texts.ended_early(abandoned, t)
    assert said == t.gettext("This game was abandoned. {next}", next="").rstrip()
    assert said.lower() in header_texts(abandoned, said, code)
    assert said in alt.board(abandoned, None, None, t)


BUILDING = {"en": ("building",), "es": ("construy",)}  # Nowa Gwinea's words for a seat still building


def panel_marks(session, ended: str | None, code: str) -> tuple[list[str], list[object]]:
    """The texts a board draws, and the fills of its panels (rounded rectangles)."""
    from PIL import ImageDraw

    fills: list[object] = []
    original = ImageDraw.ImageDraw.rounded_rectangle

    def rounded(self, xy, *args, **kwargs):
        fills.append(kwargs.get("fill"))
        return original(self, xy, *args, **kwargs)

    ImageDraw.ImageDraw.rounded_rectangle = rounded  # type: ignore[method-assign]
    try:
        found = header_texts(session, ended, code)
    finally:
        ImageDraw.ImageDraw.rounded_rectangle = original  # type: ignore[method-assign]
    return found, fills


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("code", ["en", "es"])
async def test_the_panels_of_an_ended_board_mark_no_seat_to_play(service, game, code):
    """The last board of a resigned or abandoned game: no player's panel is highlighted or marked
    ▶ as the one to play, and Nowa Gwinea's panels say nobody is building; the same state drawn
    as running marks the seat whose turn it was."""
    from renderers.colours import ACTIVE

    t = language(code)
    for channel, end in ((5, "resign"), (6, "abandon")):
        running = await two_people(service, game, channel)
        if end == "resign":
            await service.seats.resign(channel, 2)
            session = await service.core.get(running.id)
        else:
            session = await service.seats.abandon(channel, 1, can_manage=True)
        said = texts.ended_early(session, t)
        assert said is not None
        texts_running, fills_running = panel_marks(session, None, code)
        assert ACTIVE in fills_running or any("▶" in x for x in texts_running), (game, end)
        drawn, fills = panel_marks(session, said, code)
        assert ACTIVE not in fills, (game, end)
        assert not [x for x in drawn if "▶" in x], drawn
        assert not [x for x in drawn if any(w in x for w in BUILDING[code])], drawn


async def guacamole_building(service, channel: int):
    """A Guacamole game of two people whose first player has started a new dish (one card laid)."""
    session = await two_people(service, "guacamole", channel)
    (seat,) = session.to_move()
    mover = session.by_seat(seat).user_id
    legal = await service.play.legal_moves(channel, mover)
    first = next(m for m in legal if m.startswith("dish "))
    session = (await service.play.play(channel, mover, first)).session
    assert session.engine.view_for(session.state, None).building, "a dish is being made"
    return session


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("code", ["en", "es"])
async def test_an_ended_guacamole_board_leaves_the_new_dish_unfinished_and_names_no_step(service, code):
    """The last board of a Guacamole game resigned or abandoned while a dish was being made: the
    dish is drawn as it stood, labelled unfinished (not "building" or "ready", which say someone
    is still making it), and no "Now:" line says what step may be taken; in words too, nobody is
    to play and the dish is said unfinished."""
    t = language(code)
    for channel, end in ((5, "resign"), (6, "abandon")):
        running = await guacamole_building(service, channel)
        seat = running.to_move().pop()
        if end == "resign":
            await service.seats.resign(channel, running.by_seat(seat).user_id)
            session = await service.core.get(running.id)
        else:
            session = await service.seats.abandon(channel, 1, can_manage=True)
        said = texts.ended_early(session, t)
        assert said is not None
        as_running = header_texts(session, None, code)
        labels = {t.gettext("building"), t.gettext("ready")}
        step = t.gettext("Now: {step}", step="").strip().lower()
        assert labels & set(as_running) and any(x.startswith(step) for x in as_running), as_running
        drawn = header_texts(session, said, code)
        assert not labels & set(drawn), (end, drawn)
        assert not [x for x in drawn if x.startswith(step)], (end, drawn)
        assert t.gettext("unfinished").lower() in drawn, (end, drawn)
        words = "\n".join(described(session, None, t)).lower()
        assert said.lower() in words
        for gone in ("Turn {number}: {player} to play.", "{player} may now: {step}"):
            assert t.gettext(gone, number=1, player="", step="").split(":")[0].lower().strip() not in words
        assert (
            t.gettext("New dish being made: {cards}; {top} on top", cards="", top="").split(":")[0].lower()
            not in words
        )
        unfinished = t.gettext(
            "New dish left unfinished (it counts as no dish): {cards}; {top} on top", cards="", top=""
        )
        assert unfinished.split(":")[0].lower() in words, words


TURN_WORDS = {
    "guacamole": ("to play", "may now"),
    "tiwanaku": ("to play",),
    "pachakuna": ("to play",),
    "guanga": ("still choosing", "is taking", "may claim", "the end comes"),
    "nowa_gwinea": ("builds at once", "still building", "may be called"),
}


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("game", GAMES)
async def test_the_board_in_words_of_an_ended_game_names_nobody_to_play(service, game):
    """``/game describe`` (and the web page's words) of a game the table ended: the end first,
    then the board as it stood, with no line saying whose turn it is or what may be done next;
    the same board while the game ran said it."""
    running = await two_people(service, game, 5)
    said_running = "\n".join(described(running, None))
    assert [w for w in TURN_WORDS[game] if w in said_running], said_running
    await service.seats.resign(5, 2)
    resigned = await service.core.get(running.id)
    words = "\n".join(described(resigned, None))
    assert words.startswith(f"**{texts.ended_early(resigned)}**")
    assert not [w for w in TURN_WORDS[game] if w in words], words


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_the_replays_final_board_of_a_resigned_game_says_how_it_ended(service, tmp_path, monkeypatch):
    """``--replay`` of an export of a Guacamole game resigned while a dish was being made: the
    final board is drawn as the channel's last board was, saying the game is over, with no one
    to play, no step line and the dish unfinished."""
    import io

    import renderers.guacamole as picture
    from bot import export
    from bot.terminal import main as local_main

    running = await guacamole_building(service, 5)
    await service.seats.resign(5, running.by_seat(running.to_move().pop()).user_id)
    session = await service.core.get(running.id)
    path = tmp_path / "game.json"
    path.write_bytes(export.dump(await export.export_session(service, session)))
    calls: list[dict] = []
    render = picture.render

    def recorded(view, **options):
        calls.append({"view": view, **options})
        return render(view, **options)

    monkeypatch.setattr(picture, "render", recorded)
    out, err = io.StringIO(), io.StringIO()
    assert local_main(["--replay", str(path), "--out", str(tmp_path)], io.StringIO(""), out, err) == 0, err
    final = calls[-1]
    assert (final.get("ended") or "").startswith("Game over: "), final.get("ended")
    with drawn_texts() as (found, _):
        render(**final)
    drawn = [x.lower() for x in found]
    assert "unfinished" in drawn and "building" not in drawn and "ready" not in drawn, drawn
    assert not [x for x in drawn if x.startswith("now:") or "to play" in x], drawn


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("code", ["en", "es"])
async def test_an_abandon_whose_line_says_by_whom_ends_with_what_to_do_next_alone(service, code):
    """The message telling a ``/game abandon`` opens with who abandoned the game: its last line
    says only what to do next, not that the game was abandoned again; an abandon with a reason of
    its own (a clock ran out), or without that line above it, keeps its sentence."""
    t = language(code)
    running = await two_people(service, "guacamole", 5)
    plain = replace(running, row=replace(running.row, status="abandoned", end_reason="abandoned"))
    by = said(texts.ABANDONED_BY, game="Guacamole", player="<@1>")
    whole = t.gettext("This game was abandoned. {next}", next=texts.next_steps(plain, t))
    assert texts.abandoned_text(plain, t) == whole
    assert texts.abandoned_text(plain, t, (by,)) == texts.next_steps(plain, t)
    other = said("{name} resigned", name="bo")
    assert texts.abandoned_text(plain, t, (other,)) == whole
    late = replace(plain, row=replace(plain.row, end_reason="abandoned after a player's time ran out"))
    assert texts.abandoned_text(late, t, (by,)) == texts.abandoned_text(late, t) != texts.next_steps(late, t)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("code", ["en", "es"])
async def test_the_board_of_an_abandoned_game_says_why_as_its_end_was_told(service, code):
    """The board of a game abandoned as a player's time ran out (``/game board`` after its end)
    says so, as the message that told its end did: the same sentence, by the stored reason, not a
    bare "This game was abandoned."."""
    t = language(code)
    running = await two_people(service, "guacamole", 5)
    late = replace(
        running,
        row=replace(running.row, status="abandoned", end_reason="abandoned after a player's time ran out"),
    )
    text = texts.board_text(late, [], ping=False, t=t)
    assert texts.abandoned_text(late, t) in text
    assert t.gettext("This game was abandoned. {next}", next=texts.next_steps(late, t)) not in text


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
@pytest.mark.parametrize("code", ["en", "es"])
@pytest.mark.parametrize(
    ("reason", "english"),
    [
        ("abandoned after a player's time ran out", "This game was abandoned when a player's time ran out."),
        ("abandoned (damaged)", "This game was abandoned, being damaged."),
        (
            "abandoned: its channel or thread was deleted",
            "This game was abandoned when its channel or thread was deleted.",
        ),
        ("set aside by the host", "This game was abandoned (set aside by the host)."),
        (None, "This game was abandoned."),
    ],
    ids=["time", "damaged", "deleted", "other", "none"],
)
async def test_the_picture_of_an_abandoned_games_last_board_says_why(service, code, reason, english):
    """The header of an abandoned game's last board (the picture, its alt text, the board in words)
    says why it ended, by its stored reason, in the words of the message that told its end, less
    what to do next; the terminal's replay of its export says the same."""
    t = language(code)
    running = await two_people(service, "guacamole", 5)
    gone = replace(running, row=replace(running.row, status="abandoned", end_reason=reason))
    said = texts.ended_early(gone, t)
    assert said == texts.abandon_words(reason, t)
    assert said is not None and texts.abandoned_text(gone, t) == f"{said} {texts.next_steps(gone, t)}"
    if code == "en":
        assert said == english
    assert said.lower() in header_texts(gone, said, code)
    assert said in alt.board(gone, None, None, t)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_the_replays_final_board_of_an_abandoned_game_says_why(service, tmp_path, monkeypatch):
    """``--replay`` of an export of a game abandoned as a player's time ran out: the final board
    says so, as the channel's last board did."""
    import io

    import renderers.guacamole as picture
    from bot import export
    from bot.terminal import main as local_main

    running = await two_people(service, "guacamole", 5)
    mover = running.by_seat(sorted(running.to_move())[0]).user_id
    await service.play.play(5, mover, (await service.play.legal_moves(5, mover))[0])  # a board to end on
    abandoned = await service.seats.abandon(5, 1, can_manage=True)
    late = replace(
        abandoned, row=replace(abandoned.row, end_reason="abandoned after a player's time ran out")
    )
    path = tmp_path / "game.json"
    path.write_bytes(export.dump(await export.export_session(service, late)))
    endings: list[str | None] = []
    render = picture.render

    def recorded(view, **options):
        endings.append(options.get("ended"))
        return render(view, **options)

    monkeypatch.setattr(picture, "render", recorded)
    out, err = io.StringIO(), io.StringIO()
    assert local_main(["--replay", str(path), "--out", str(tmp_path)], io.StringIO(""), out, err) == 0, err
    assert running.id == late.id and endings[-1] == "This game was abandoned when a player's time ran out."
