"""The results card: the score series from the log, and the PNG it draws (opened with Pillow)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import languages
from bot import alt, results
from bot.sessions import RatingChange
from bot.texts import outcome_lines, result_line
from engines.core import Outcome
from renderers import animation
from renderers.colours import colour_counts, seat_colour
from tests.i18n.test_spanish_boards import drawn_texts
from tests.table.test_history import GAMES, played


@pytest.mark.parametrize("game", GAMES)
async def test_card_of_each_game(service, game):
    session = await played(service, game, 400, moves=10**6, seed=6)
    session = await service.core.get(session.id)
    rows = await service.store.history.moves(session.id)
    values, turns = results.series(session, rows)
    module = session.engine
    assert 1 <= turns <= len(rows)
    assert all(len(v) == turns + 1 for v in values)
    assert [v[-1] for v in values] == list(module.scores_now(session.state))
    png = await results.card(service, session, [RatingChange(1, "ann", 0.0, 2.5)])
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.width == 800
    colours = {c for _, c in colour_counts(image.convert("RGB"))}
    for seat in range(len(values)):
        assert seat_colour(seat) in colours, f"seat {seat}'s line is missing"
    small = image.resize((400, image.height * 400 // image.width))
    assert small.height < 600  # one phone screen at 400 px wide


def test_durations_read_as_people_write_them():
    assert results.duration("2026-01-01T10:00:00+00:00", "2026-01-01T10:00:40+00:00") == "40 s"
    assert results.duration("2026-01-01T10:00:00+00:00", "2026-01-01T12:05:00+00:00") == "2 h 05 min"
    assert results.duration("2026-01-01T10:00:00+00:00", "2026-01-04T11:00:00+00:00") == "3 days 1 h"
    assert results.duration("nonsense", "2026-01-01T10:00:00+00:00") == "?"


async def test_animated_summary_has_a_frame_per_turn_and_fits(service):
    session = await played(service, "pachakuna", 401, moves=10**6, seed=2)
    session = await service.core.get(session.id)
    rows = await service.store.history.moves(session.id)
    _, turns = results.series(session, rows)
    frames = results.frames(session, rows)
    assert len(frames) == turns + 1
    gif = await results.summary(service, session)
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.n_frames == len(frames) and len(gif) <= animation.LIMIT
    assert image.info.get("loop") == 0
    # Under a tight limit it gets narrower, then keeps every other frame (the last one too).
    tight = animation.animate(frames, limit=len(gif) // 4)
    small = Image.open(io.BytesIO(tight))
    assert len(tight) <= len(gif) // 4 and small.width < image.width and small.n_frames < image.n_frames


async def test_animated_summary_in_the_high_contrast_palette(service):
    """The summary's frames follow the server's palette: the same boards, every colour converted."""
    session = await played(service, "tiwanaku", 402, moves=10**6, seed=3)
    session = await service.core.get(session.id)
    rows = await service.store.history.moves(session.id)
    standard, contrasted = results.frames(session, rows), results.frames(session, rows, contrast=True)
    assert len(standard) == len(contrasted)
    for plain, high in zip(standard, contrasted, strict=True):
        assert plain.size == high.size

        def paper(image):  # the colour most of the frame is
            return max(colour_counts(image.convert("RGB")))[1]

        assert paper(plain) != (255, 255, 255) and paper(high) == (255, 255, 255)


def test_a_duration_leaves_out_its_zero_parts():
    """ "2 h 00 min" and "3 days 0 h" read "2 h" and "3 days"; a single day agrees with its count."""
    es = languages.language("es")
    start = "2026-01-01T10:00:00+00:00"
    assert results.duration(start, "2026-01-01T12:00:00+00:00") == "2 h"
    assert results.duration(start, "2026-01-04T10:00:00+00:00") == "3 days"
    assert results.duration(start, "2026-01-04T10:00:00+00:00", es) == "3 días"
    assert results.duration(start, "2026-01-03T11:00:00+00:00", es) == "2 días 1 h"


async def test_the_post_and_the_card_rank_a_resigned_seat_where_the_ratings_do(service):
    """A seat that resigned (the computer then played it) ranks last in the stored results and
    the ratings, even when its computer wins: the last post, the lobby's result line, the card
    and its alt text say the same places."""
    ch = 777
    await service.lobby.create("nim", guild_id=1, channel_id=ch, host_id=1, host_name="ann", seed=1)
    await service.lobby.join(ch, 2, "bob")
    await service.lobby.join(ch, 3, "cy")
    session = (await service.lobby.start(ch, 1)).session
    session = (await service.seats.resign(ch, 1)).session  # ann resigns; the computer plays on
    while session.status == "active":
        (seat,) = session.to_move()
        user = session.by_seat(seat).user_id
        session = (await service.play.play(ch, user, (await service.play.legal_moves(ch, user))[0])).session
    session = await service.core.get(session.id)
    ann, bob, cy = (session.seat_of(u) for u in (1, 2, 3))
    outcome = Outcome.from_dict(session.row.outcome)
    assert outcome.ranking == ((ann.seat,), (bob.seat, cy.seat))  # her computer took the last stone
    stored = {r.user_id: r.place for r in await service.store.ratings.results(session.id)}
    assert stored == {2: 1, 3: 1, 1: 3}
    assert outcome_lines(session, outcome)[1:] == ["1st: <@2>: 0", "1st: <@3>: 0", "3rd: ann: 1 (resigned)"]
    assert result_line(session).startswith("Result: bob and cy win")
    rows = results.card_rows(session, outcome)
    assert [(r.place, r.name, r.score, r.note) for r in rows] == [
        (1, "bob", "0", None),
        (1, "cy", "0", None),
        (3, "ann", "1", "resigned"),
    ]
    assert "1st: bob: 0. 1st: cy: 0. 3rd: ann: 1 (resigned)." in alt.results_card(session)
    # The game's web page lists the same places.
    from bot.history import History
    from bot.web.game import Games
    from languages import ENGLISH

    players = Games(service, History(service)).players(session, ENGLISH)
    assert [(p.name, p.place) for p in players] == [
        (s.name, {"ann": "3rd", "bob": "1st", "cy": "1st"}[s.name])
        for s in sorted(session.seats, key=lambda s: s.seat)
    ]


def test_a_long_name_is_cut_before_its_note():
    """The card's row keeps "(time ran out)" or "(resigned)" whole beside a name too long for the
    row: the name is cut, with an ellipsis, not the reason for the row's place."""
    from renderers import results as card
    from renderers.typeset import text_width

    long_name = "Bartolomé Fernández Quispe de la Vega"
    row = card.Row(2, 1, long_name, "25", "10 → 8 (−2)", "time ran out")
    shown = card.name_with_note(row, 400)
    assert shown.endswith("… (time ran out)") and shown.startswith("Bart"), shown
    assert text_width(shown, 30, True) <= 400
    assert card.name_with_note(card.Row(1, 0, "Ana", "21", None, "resigned"), 400) == "Ana (resigned)"
    assert card.name_with_note(card.Row(1, 0, long_name, "21"), 400).endswith("…")


async def test_a_spanish_card_says_why_the_game_ended_in_spanish(service):
    """The results card of a Spanish server drew the engine's English reason under its Spanish
    label ("Fin de la partida: the draw pile ran out and the round was completed."), while the
    post above it said "se acabó el mazo y se completó la ronda"."""
    session = await played(service, "guacamole", 402, moves=10**6, seed=6)
    session = await service.core.get(session.id)
    assert session.status == "finished"
    with drawn_texts() as (texts, _):
        await results.card(service, session, language="es")
    drawn = " ".join(texts)
    assert "Fin de la partida: se acabó el mazo y se completó la ronda." in drawn, texts
    assert "draw pile" not in drawn


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("Game over: {a} and {b} share the win (most points, then most dishes).", "share the win"),
        ("Fin de la partida: {a} y {b} comparten la victoria (más puntos, luego más platos).", "comparten"),
    ],
)
def test_a_cards_reason_shortens_long_names_not_what_it_says(reason, said):
    """With two 32-letter names the card's reason read "Game over: / WWWW… / and WWWW…": the
    rest of it ("share the win", why) was cut.  The names are shortened, the sentence kept."""
    from renderers.results import PAD, SMALLEST, WIDTH, Card, Row, reason_lines, render
    from renderers.typeset import text_width

    a, b = "W" * 32, "M" * 32
    card = Card(
        "Guacamole, game #3", reason.format(a=a, b=b), [Row(1, 0, a, "9"), Row(1, 1, b, "9")], names=[a, b]
    )
    lines = reason_lines(card)
    assert said in " ".join(lines) and " ".join(lines).endswith(").")
    assert all(text_width(line, SMALLEST) <= WIDTH - 2 * PAD for line in lines)
    assert "W…" in lines[0] + lines[1] and "M…" in " ".join(lines)
    assert render(card)  # drawn with those lines
    short = Card("Guacamole, game #3", "Game over: an and ana share the win.", [], names=["an", "ana"])
    assert reason_lines(short) == ["Game over: an and ana share the win."]  # short names stay whole
