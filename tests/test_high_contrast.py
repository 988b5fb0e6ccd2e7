"""The high-contrast palette (``render(..., contrast=True)``): every game's board, the results
card and the hut chart draw in it, differ from the standard picture, keep the second cues, and
its paper and ink are at least 7:1 apart (WCAG AAA)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engines
from renderers import colours, nowa_gwinea, results, typeset
from renderers.samples import SETUPS, positions

GAMES = sorted(SETUPS)


def luminance(rgb) -> float:
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _colours(png: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _, c in colours.colour_counts(image)}


def test_paper_and_ink_are_aaa_apart():
    paper, panel = colours.contrast_colour(colours.BACKGROUND), colours.contrast_colour(colours.PANEL)
    for ink in (colours.INK, colours.MUTED, *colours.SEAT_COLOURS):
        for ground in (paper, panel, colours.contrast_colour(colours.ACTIVE)):
            assert ratio(colours.contrast_colour(ink), ground) >= 7, (ink, ground)
    assert paper == (255, 255, 255)
    # the standard palette's secondary text is not: the high-contrast one is needed
    assert ratio(colours.MUTED, colours.BACKGROUND) < 7


def _text_inks(game: str) -> dict[tuple[int, ...], set[str]]:
    """Every colour text is drawn in on the game's sample boards, with the texts."""
    renderer = engines.get(game).load_renderer()
    typeset.clear_art()
    inks: dict[tuple[int, ...], set[str]] = {}
    with colours.cue_log() as cues:
        for pos in positions(game):
            for seat in (None, *range(pos.players)):
                renderer.draw_board(pos.view(seat), names=pos.names, last_action=pos.last_action_in(None))
    for kind, text, ink in cues:
        if kind == "text" and ink is not None:
            inks.setdefault(ink, set()).add(text)
    return inks


@pytest.mark.parametrize("game", GAMES)
def test_text_in_colour_reads_on_the_paper(game):
    """Text in a dark ink (a title in gold, a village's water line in blue, "invalid" in red) is
    written on the paper, a panel or the active seat's background: it reads there as secondary
    text does, 4.5:1 (WCAG AA) in the standard palette and 7:1 (AAA) in the high-contrast one.
    (Light inks are written on pieces, and their letters are the colour keys' own test.)"""
    grounds = (colours.BACKGROUND, colours.PANEL, colours.ACTIVE)
    faint = []
    for ink, texts in _text_inks(game).items():
        if ratio(ink, colours.PANEL) < 2:  # a light ink: letters on a piece
            continue
        standard = min(ratio(ink, ground) for ground in grounds)
        high = min(ratio(colours.contrast_colour(ink), colours.contrast_colour(ground)) for ground in grounds)
        if standard < 4.5 or high < 7:
            faint.append((ink, sorted(texts)[:3], round(standard, 2), round(high, 2)))
    assert not faint, (game, faint)


@pytest.mark.parametrize("game", GAMES)
def test_every_board_renders_in_high_contrast(game):
    renderer = engines.get(game).load_renderer()
    pos = next(p for p in positions(game) if not p.label.endswith("-start"))
    for seat in (None, 0):
        kw = {"names": pos.names, "last_action": pos.last_action_in(None)}
        standard = renderer.render(pos.view(seat), **kw)
        high = renderer.render(pos.view(seat), **kw, contrast=True)
        assert high != standard
        assert colours.BACKGROUND not in _colours(high) and colours.BACKGROUND in _colours(standard)
        # the same picture, each colour as the palette draws it: white paper, black ink
        drawn = renderer.draw_board(pos.view(seat), **kw)
        contrasted = renderer.draw_board(pos.view(seat), **kw, contrast=True)
        assert colours.high_contrast(drawn).tobytes() == contrasted.tobytes()
        assert contrasted.getpixel((2, 2)) == (255, 255, 255), game
        counts = colours.colour_counts(contrasted)
        assert colours.contrast_colour(colours.INK) in {c for _, c in counts}, game


def test_the_results_card_and_the_hut_chart_render_in_high_contrast():
    card = results.Card(title="T", reason="R", rows=())
    assert colours.BACKGROUND in _colours(results.render(card))
    image = Image.open(io.BytesIO(results.render(card, contrast=True))).convert("RGB")
    assert colours.BACKGROUND not in _colours(results.render(card, contrast=True))
    assert min(image.getpixel((2, 2))) >= 250  # the paper is (all but) pure white
    assert nowa_gwinea.render_huts(contrast=True) != nowa_gwinea.render_huts()
    assert colours.BACKGROUND not in _colours(nowa_gwinea.render_huts(contrast=True))


def test_league_pictures_follow_the_palette():
    """League standings and brackets are public pictures too: the server's palette covers them."""
    from renderers import league

    line = league.StandingLine(
        rank=1, name="Ana", points=3.0, games=2, wins=1, tiebreak=0.0, rating=None, movement=0
    )
    for make in (
        lambda **kw: league.standings("Liga", "Round 2", [line], **kw),
        lambda **kw: league.bracket("Liga", [[league.BracketMatch("Ana", "Beto", "Ana", True)]], **kw),
    ):
        standard, contrasted = make(), make(contrast=True)
        assert colours.BACKGROUND in _colours(standard)
        assert colours.BACKGROUND not in _colours(contrasted)
        image = Image.open(io.BytesIO(contrasted)).convert("RGB")
        assert min(image.getpixel((2, 2))) >= 250
