"""Renderer tests: what the board's picture says in words and letters a new player can read (the
supply's key, the seats' counts, the loads of the llamas on villages)."""

from __future__ import annotations

from engines import pachakuna as P
from engines.pachakuna import data as D
from renderers import pachakuna as R
from renderers.translation import speaking
from renderers.typeset import Drawn, clear_art, on_phone, text_log

from .helpers import fresh, give, put

PHONE = 400  # the width Discord shows a picture at on a phone
NAMES = ["Ana", "Bob"]


def _drawn(view: P.View, language: str) -> list[Drawn]:
    """Every text the whole picture draws in ``language``, its art drawn anew."""
    clear_art()
    with text_log() as log:
        R.draw_board(view, names=NAMES, language=language)
    return list(log)


def _middle(d: Drawn) -> tuple[float, float]:
    return (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2


def test_the_supply_key_names_each_colour_beside_its_letter():
    """The supply's discs read "P2": the picture says, in the language drawn, that a disc shows a
    colour's letter (the one typed in moves) and a count, and names each colour beside its letter
    in its piece (B blue, not black nor brown), and the brown square, which has no letter."""
    view = P.view_for(fresh(), 0)
    for language, words, count in (
        ("en", ("white", "yellow", "orange", "red", "purple", "blue", "green", "brown"), "P2: 2 purple"),
        (
            "es",
            ("blanco", "amarillo", "naranja", "rojo", "morado", "azul", "verde", "marrón"),
            "P2: 2 de morado",
        ),
    ):
        drawn = _drawn(view, language)
        assert any(count in d.text and len(d.text) > 40 for d in drawn), language
        named = {d.text: d for d in drawn if d.text in words}
        assert set(named) == set(words), (language, sorted(named))
        for colour, word in zip((*D.COLOURS, "brown"), words, strict=True):
            x, y = _middle(named[word])
            assert on_phone(named[word].cap, R.WIDTH) >= 4.6, (language, word)
            if colour == "brown":
                continue
            letters = [
                d
                for d in drawn
                if d.text == D.LETTER[colour]
                and abs(_middle(d)[1] - y) < 8
                and 0 < d.box[0] < named[word].box[0]
            ]
            # the letter's piece stands just left of its word, and no nearer word is between them
            letter = max(letters, key=lambda d: d.box[0])
            assert named[word].box[0] - letter.box[2] < 30, (language, word)
            assert not any(letter.box[2] < other.box[0] < named[word].box[0] for other in named.values())


def test_a_seats_line_says_what_its_numbers_count():
    """A seat's line under its name says its resources and how many of them are loose in words
    ("4 resources, 2 loose"), not "loose 2/4", in both languages, with its llamas."""
    s = fresh()
    for seat in (0, 1):
        s.supply[seat] = {k: 0 for k in s.supply[seat]}
    give(s, 0, white=2, red=1, brown=1)  # the second white and the brown lie loose
    give(s, 1, green=1)
    put(s, 1, 2, 91, "blue")
    view = P.view_for(s, 0)
    lines = {line.seat: line.detail for line in R._seat_lines(view, NAMES)}
    assert lines == {0: "White · 4 resources, 2 loose · 1 llama", 1: "Black · 1 resource, 0 loose · 2 llamas"}
    with speaking("es"):
        lines = {line.seat: line.detail for line in R._seat_lines(view, NAMES)}
    assert lines == {
        0: "Blanco · 4 recursos, 2 sueltos · 1 llama",
        1: "Negro · 1 recurso, 0 sueltos · 2 llamas",
    }


def test_a_villages_llamas_show_their_loads():
    """A llama on a village shows its load beside its number (only its side's list in the panel
    did): a piece of the load's colour with the letter, in the band between the village's number
    and its flags, readable on a phone; a llama that sold and carries nothing shows no letter."""
    s = fresh()
    s.llamas = []
    placed = {
        15: ((0, 1, "red"),),
        55: ((0, 2, "yellow"), (1, 1, "blue")),
        91: ((0, 3, "green"), (1, 2, None)),
    }
    for village, llamas in placed.items():
        for seat, ident, load in llamas:
            put(s, seat, ident, village, load)
    drawn = [d for d in _drawn(P.view_for(s, None), "en") if d.canvas == (R.BOARD_W, R.BOARD_H)]
    for village, llamas in placed.items():
        loads = [load for _, _, load in llamas]
        cx, cy = R.centre(village)
        top = cy - R.NUMBER_VILLAGE_Y + R.NUMBER_VILLAGE_SIZE / 2  # under the village's number
        bottom = cy + R.DEMAND_Y + R.BIG_FLAG[1]  # above its flags
        band = [d for d in drawn if abs(_middle(d)[0] - cx) < 41 and top <= _middle(d)[1] <= bottom]
        numbers = sorted((d for d in band if d.text.isdigit()), key=lambda d: d.box[0])
        letters = sorted((d for d in band if not d.text.isdigit()), key=lambda d: d.box[0])
        assert [d.text for d in numbers] == [str(ident) for _, ident, _ in llamas], village
        assert [d.text for d in letters] == [D.LETTER[c] for c in loads if c], village
        for number, load in zip(numbers, loads, strict=True):
            if load:  # each load just right of its llama's number
                letter = next(d for d in letters if d.text == D.LETTER[load])
                assert 0 < letter.box[0] - number.box[2] < 20, (village, load)
                assert on_phone(letter.cap, R.WIDTH) >= 4.6, (village, load)
