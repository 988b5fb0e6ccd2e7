"""Nowa Gwinea's sentences kept for translation: every event, refusal, outcome and summary carries
its English template and values (engines.core.Said), reads as before in English, and reads in
Spanish through the catalogue."""

from __future__ import annotations

import json
import random
import re

import pytest

import engines.nowa_gwinea as ng
from engines.core import (
    TABLE,
    Event,
    GameOver,
    IllegalMove,
    MalformedMove,
    MoveError,
    NotYourTurn,
    Said,
    SetupError,
    config_options,
    in_words,
    name_seats,
    quoted,
)
from engines.nowa_gwinea.data import ANIMAL_TERMS, ANIMALS
from languages import ENGLISH, language
from tests.nowa_gwinea.conftest import FULL, PARTIAL, rig
from tests.nowa_gwinea.test_playouts import check_event, check_refusal, playout
from tests.nowa_gwinea.util import build, play, rigged
from tests.support.sentences import ES as SPANISH
from tests.support.sentences import untranslated

pytestmark = pytest.mark.usefixtures("board99")

MODES = {
    "standard-shared": {},
    "hard-shared": {"side": ng.Side.HARD},
    "hard-each": {"side": ng.Side.HARD, "boards": ng.Deal.EACH},
    "hard-not-rerolled": {"side": ng.Side.HARD, "hard_reroll": False},
    "variants": {"water_target": 3, "fruit_for_all": True, "hard_seats": "1", "boards": ng.Deal.EACH},
}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_event_of_a_playout_is_a_kept_sentence(mode):
    """Seeded games of every mode and variant, 1-4 players: each event's sentence reads as its
    English text (and its public sentence as the public text), every message in it is in the
    Spanish catalogue, JSON storage keeps it, and refused huts along the way are kept sentences
    too (the checks run inside the playout, on every move)."""
    for seed in range(4):
        config = ng.Config(players=1 + seed % 4, **MODES[mode])
        final, _log = playout(config, seed, heavy_every=3)
        assert final.over


def test_the_reroll_and_the_shared_win_read_in_spanish():
    """The round that rolled again says so in both languages; a shared win names both winners."""
    rerolled = []
    for seed in range(40):
        state = ng.new_game(ng.Config(players=1, side=ng.Side.HARD), 1, seed)
        _ended, events = ng.apply_move(state, TABLE, ng.Timeout())
        rerolled += [e for e in events if e.kind == "round" and "rolled again" in e.text]
    assert rerolled
    check_event(rerolled[0])
    spanish = rerolled[0].words_for(None, SPANISH)
    assert "se volvió a tirar" in spanish and "¡Toda la mesa construye a la vez!" in spanish
    assert spanish.startswith("Ronda 2 de 9: tablero ")

    s = rig(players=2)
    for _ in range(9):
        s.boards, s.sides, s.totem = [99, 99], ["A", "A"], 0
        s, events = ng.apply_move(s, TABLE, ng.Timeout())
    end = events[-1]
    assert (
        end.kind == "end" and end.text == "The game is over after 9 rounds; {p0} and {p1} win with 0 points."
    )
    check_event(end)
    assert end.words_for(None, SPANISH) == "La partida terminó tras 9 rondas; {p0} y {p1} ganan con 0 puntos."


@pytest.mark.parametrize(
    ("players", "english", "spanish"),
    [
        (3, "{p0}, {p1} and {p2} win", "{p0}, {p1} y {p2} ganan"),
        (4, "{p0}, {p1}, {p2} and {p3} win", "{p0}, {p1}, {p2} y {p3} ganan"),
    ],
)
def test_several_winners_are_listed_with_commas(players, english, spanish):
    """Three or four seats sharing the win are listed with commas, then "and" ("y")."""
    s = rig(players=players)
    for _ in range(9):
        s.boards, s.sides, s.totem = [99] * players, ["A"] * players, 0
        s, events = ng.apply_move(s, TABLE, ng.Timeout())
    check_event(events[-1])
    assert events[-1].text == f"The game is over after 9 rounds; {english} with 0 points."
    assert events[-1].words_for(2, SPANISH) == f"La partida terminó tras 9 rondas; {spanish} con 0 puntos."


def test_a_built_hut_in_spanish_for_its_builder_and_for_the_others():
    """The builder reads the hut, its squares and the counts in Spanish; the others read only that
    a hut was built; seats stay {pN} for the table to name."""
    _s, events = ng.apply_move(rig(), 1, ng.parse_move("X0B3"))
    (e,) = events
    check_event(e)
    assert e.text == "{p1} built hut X on B3 C2 C3 C4 D3 (X0B3): 2 water holes and 1 fruit bush covered"
    assert e.said.args["water"].args["n"] == 2 and e.said.args["fruit"].args["n"] == 1
    assert e.words_for(1, SPANISH) == (
        "{p1} construyó la choza X en B3 C2 C3 C4 D3 (X0B3): cubre 2 pozas de agua y 1 arbusto frutal"
    )
    assert e.words_for(0, SPANISH) == e.words_for(None, SPANISH) == "{p1} construyó una choza"
    done = build(rig(), 0, PARTIAL)
    _s, (ready,) = ng.apply_move(done, 0, ng.parse_move("L0E2"))
    assert ready.text.endswith("; you may call 'gwinea'")
    assert ready.words_for(0, SPANISH).endswith(
        "cubre 5 pozas de agua y 3 arbustos frutales; puedes cantar 'gwinea'"
    )


def test_a_round_ends_in_spanish():
    """A call, the seats cut off, the scores of the round and the next round's die, in Spanish,
    with their numbers, seats and the animal as a term of the game."""
    s = build(rig(players=3), 0, FULL)
    s = build(s, 1, ["I0A3"])
    _s, events = ng.apply_move(s, 0, ng.Gwinea())
    for e in events:
        check_event(e)
    kinds = [e.kind for e in events]
    assert kinds == ["gwinea", "cut_off", "cut_off", "score", "round"]
    es = [e.words_for(None, SPANISH) for e in events]
    assert es[0] == "{p0} canta ¡Gwinea! Termina la ronda 1."
    assert es[1] == "{p1} seguía construyendo cuando {p0} cantó: la aldea de {p1} puntúa tal como está."
    assert es[3] == (
        "Puntos de la ronda 1: {p0} 11 puntos (5 pozas de agua, 3 arbustos frutales + bonificación de fruta); "
        "{p1} 1 punto (1 poza de agua, 1 arbusto frutal); {p2} 0 puntos (0 pozas de agua, 0 arbustos frutales)."
    )
    assert events[3].text.startswith(
        "Round 1 scores: {p0} 11 points (5 water holes, 3 fruit bushes + fruit bonus); "
    )
    animal = events[4].said.args["animal"]
    assert animal.context == "nowa_gwinea term" and animal.msg in ANIMALS
    assert f"en el dado sale el tótem {SPANISH.pgettext('nowa_gwinea term', animal.msg)}." in es[4]
    assert es[4].startswith("Ronda 2 de 9: tablero ")


def test_a_deadline_without_a_caller_in_spanish():
    """The deadline's events and the fruit bonus given at a deadline, in Spanish."""
    s = play(rig(players=2), 1, "I0A3")
    _s, events = ng.apply_move(s, TABLE, ng.Timeout())
    for e in events:
        check_event(e)
    assert events[0].words_for(None, SPANISH) == "¡Se acabó el tiempo de la ronda 1!"
    assert (
        events[1]
        .words_for(None, SPANISH)
        .endswith(
            "Nadie cantó ¡Gwinea!: la bonificación de fruta es para {p1}, cuya aldea válida cubre más pozas de agua."
        )
    )
    _s, events = ng.apply_move(rig(players=2), TABLE, ng.Timeout())
    assert "ninguna aldea cubre una poza de agua: no hay bonificación de fruta" in events[1].words_for(
        0, SPANISH
    )
    s = build(rig(players=2), 0, FULL)
    s, _ = ng.apply_move(s, 1, ng.Done())
    _s, events = ng.apply_move(s, 0, ng.Done())
    assert [e.kind for e in events[:3]] == ["done", "deadline", "score"]
    assert events[0].words_for(None, SPANISH) == "{p0} terminó de construir en esta ronda"
    assert events[1].words_for(None, SPANISH) == "Toda la mesa terminó de construir; termina la ronda 1."
    assert "la bonificación de fruta es para {p0}, que completó antes una aldea." in events[2].words_for(
        None, SPANISH
    )


def test_a_broken_village_reads_in_spanish():
    """A village split in a saved state: taking a hut back, the refused call and its 0 points say
    why, in Spanish, the huts named."""
    s = rigged(players=1, board=1, side="B", totem=0)
    s.villages[0] = ["N0B8", "Z1F8", "L3G4", "P2D3", "F3A1"]
    _s, (removed,) = ng.apply_move(s, 0, ng.parse_move("remove Z"))
    check_event(removed)
    assert (
        "cuidado: ahora la aldea incumple las reglas (las chozas L, P, F no están unidas"
        in removed.words_for(0, SPANISH)
    )
    with pytest.raises(IllegalMove) as caught:
        ng.apply_move(s, 0, ng.Gwinea())
    check_refusal(caught.value)
    assert caught.value.said.in_words(SPANISH) == (
        "no puedes cantar ¡Gwinea!: las chozas L, P, F no están unidas esquina con esquina a la choza del tótem "
        "del dado (la choza N); una aldea es un solo grupo; arregla antes la aldea"
    )
    _s, events = ng.apply_move(s, TABLE, ng.Timeout())
    score = next(e for e in events if e.kind == "score")
    check_event(score)
    assert score.words_for(None, SPANISH).startswith(
        "Puntos de la ronda 1: {p0} 0 puntos (la aldea incumple las reglas: "
    )
    broken = ng.view_for(s, 0).broken
    assert isinstance(broken, Said) and "no están unidas" in broken.in_words(SPANISH)
    assert "Incumple una regla: las chozas L, P, F" in in_words(ng.summary(ng.view_for(s, 0)), SPANISH)


# --------------------------------------------------------------------------- refusals


def _full():
    return build(rig(), 0, FULL)


def _over():
    over = rig(players=1)
    for _ in range(9):
        over.boards, over.sides, over.totem = [99], ["A"], 0
        over, _ = ng.apply_move(over, TABLE, ng.Timeout())
    return over


def _done():
    return ng.apply_move(rig(players=3), 0, ng.Done())[0]


def _split():
    return build(rig(), 0, PARTIAL + ["P4B6"])


REFUSALS = [  # (name, what provokes it, its class, words of its Spanish): every kind of refusal
    ("bad notation", lambda: ng.parse_move("hello"), MalformedMove, ['"hello" no es una jugada', "F3C4"]),
    ("not a move", lambda: ng.apply_move(rig(), 0, "F3C4"), MalformedMove, ["'F3C4' no es una jugada"]),
    ("game over", lambda: ng.apply_move(_over(), 0, ng.Done()), GameOver, ["ya se jugaron las 9 rondas"]),
    ("timeout from a seat", lambda: ng.apply_move(rig(), 0, ng.Timeout()), NotYourTurn, ["solo la mesa"]),
    ("no seat", lambda: ng.apply_move(rig(), None, ng.Done()), NotYourTurn, ["solo quienes tienen"]),
    ("seat outside", lambda: ng.apply_move(rig(), 5, ng.Done()), NotYourTurn, ["solo quienes tienen"]),
    (
        "finished",
        lambda: ng.apply_move(_done(), 0, ng.Done()),
        NotYourTurn,
        ["terminaste de construir en la ronda 1", "siguen construyendo: {p1}, {p2}"],
    ),
    (
        "off the board",
        lambda: play(rig(), 0, "I0E1"),
        IllegalMove,
        ["I0E1 se saldría del tablero", "cabe en"],
    ),
    (
        "first hut",
        lambda: play(rig(), 0, "I0D7"),
        IllegalMove,
        ["tu primera choza debe cubrir el tótem del dado, loro, en C3", "la choza I cabe en"],
    ),
    (
        "overlap",
        lambda: play(play(rig(), 0, "X0B3"), 0, "I0A4"),
        IllegalMove,
        ["encima de la choza X en C4"],
    ),
    (
        "edge",
        lambda: play(build(rig(), 0, ["X0B3"]), 0, "I0C5"),
        IllegalMove,
        ["I0C5 tocaría la choza X"],
    ),
    ("apart", lambda: play(build(rig(), 0, ["X0B3"]), 0, "I0D7"), IllegalMove, ["I0D7 no toca ninguna"]),
    (
        "other totem",
        lambda: play(build(rig(), 0, ["X0B3"]), 0, "I1F2"),
        IllegalMove,
        ["cubriría el tótem lagarto en F6", "el tótem del dado: loro"],
    ),
    (
        "twice",
        lambda: play(_full(), 0, "X0E6"),
        IllegalMove,
        ["la choza X ya está en tu aldea", "algunas colocaciones"],
    ),
    ("remove missing", lambda: play(_full(), 0, "remove Z"), IllegalMove, ["tus chozas son: X, I, L"]),
    ("remove none", lambda: play(rig(), 0, "remove Z"), IllegalMove, ["no tienes chozas en el tablero"]),
    (
        "totem hut",
        lambda: play(_full(), 0, "remove X"),
        IllegalMove,
        ["cubre el tótem del dado, loro", "retirar I, L"],
    ),
    (
        "split",
        lambda: play(_split(), 0, "remove I"),
        IllegalMove,
        ["la choza P ya no estaría unida a la choza X, la del tótem loro", "puedes retirar P"],
    ),
    (
        "early call",
        lambda: play(build(rig(), 0, PARTIAL), 0, "gwinea"),
        IllegalMove,
        ["cubre 4 de las 5 pozas"],
    ),
    ("players", lambda: ng.Config(players=5).validate(), SetupError, ["de 1 a 4 jugadores, no 5"]),
    (
        "seats",
        lambda: ng.new_game(ng.Config(players=2), 3, 1),
        SetupError,
        ["2 jugadores, pero se dieron 3"],
    ),
    ("one seat", lambda: ng.new_game(ng.Config(players=2), 1, 1), SetupError, ["pero se dio 1 asiento"]),
    ("water", lambda: ng.Config(water_target=6).validate(), SetupError, ["de 1 a 5 pozas de agua, no 6"]),
    (
        "hard seats",
        lambda: ng.Config(hard_seats="3").validate(),
        SetupError,
        ["del 1 al 2", '"3" no lo es'],
    ),
    ("side", lambda: ng.Config(side="x").validate(), SetupError, ["cara debe ser standard o hard"]),
    ("boards", lambda: ng.Config(boards="x").validate(), SetupError, ["tableros debe ser shared o each"]),
    ("reroll", lambda: ng.Config(hard_reroll="x").validate(), SetupError, ["repetición_difícil debe ser"]),
    ("schema", lambda: ng.from_dict({"schema": 99}), SetupError, ["no admitido: 99"]),
]


@pytest.mark.parametrize(
    ("provoke", "kind", "words"), [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS]
)
def test_every_refusal_is_a_kept_sentence_in_spanish(provoke, kind, words):
    """Each refusal (bad notation, a finished game, the wrong seat, every placement and removal
    rule, an early call, bad options) is a kept sentence with its values, all translated, and its
    Spanish holds the translated words and the values (hut, squares, counts, seats)."""
    with pytest.raises(kind) as caught:
        provoke()
    check_refusal(caught.value)
    spanish = caught.value.said.in_words(SPANISH)
    for word in words:
        assert word in spanish, (spanish, word)
    assert spanish != str(caught.value)


def test_a_refusal_names_its_values_not_english_pieces():
    """The values of a refusal are notation, numbers and kept sentences, never English prose."""
    with pytest.raises(IllegalMove) as caught:
        play(build(rig(), 0, ["X0B3"]), 0, "I1F2")
    said = caught.value.said
    assert said.msg == "{problem}; {hint}"
    problem, hint = said.args["problem"], said.args["hint"]
    assert problem.args["place"] == "I1F2" and problem.args["cell"] == "F6"
    assert problem.args["animal"] == ANIMAL_TERMS[4] and problem.args["rolled"] == ANIMAL_TERMS[0]
    assert hint.msg == "hut {hut} fits at {places}" and hint.args["hut"] == "I"
    with pytest.raises(IllegalMove) as caught:
        play(build(rig(), 0, PARTIAL), 0, "gwinea")
    assert (caught.value.said.args["n"], caught.value.said.args["water"]) == (5, 4)
    assert "{n}" in caught.value.said.plural


# --------------------------------------------------------------------------- outcome, summary, words


def test_the_outcome_keeps_its_reason():
    s = rig(players=2)
    for _ in range(9):
        s.boards, s.sides, s.totem = [99, 99], ["A", "A"], 0
        s = build(s, 0, ["X0B3"])
        s, _ = ng.apply_move(s, TABLE, ng.Timeout())
    out = ng.outcome(s)
    assert out.reason == "all 9 rounds were played" and out.reason_in(SPANISH) == "se jugaron las 9 rondas"
    assert out.tiebreak is None and out.tiebreak_in(SPANISH) is None
    assert type(out).from_dict(json.loads(json.dumps(out.to_dict()))) == out


def test_the_summary_is_a_kept_sentence():
    """A seat's own village in a few lines, in English as before and in Spanish."""
    s = build(rig(), 0, PARTIAL)
    summary = ng.summary(ng.view_for(s, 0))
    assert isinstance(summary, Said) and untranslated(summary, wordless_ok=True) == []
    assert str(summary).splitlines() == [
        "Round 1 of 9, totem: parrot. Your score: 0",
        "Your village: X0B3 I0D5 (water 4 of 5, fruit 2)",
    ]
    assert in_words(summary, SPANISH).splitlines() == [
        "Ronda 1 de 9, tótem: loro. Tus puntos: 0",
        "Tu aldea: X0B3 I0D5 (agua 4 de 5, fruta 2)",
    ]
    full = build(rig(), 1, FULL)
    assert in_words(ng.summary(ng.view_for(full, 1)), SPANISH).splitlines()[-1] == "Puedes cantar 'gwinea'."
    assert in_words(ng.summary(ng.view_for(full, 0)), SPANISH).splitlines()[-1] == "Tu aldea: aún sin chozas"
    assert ng.summary(ng.view_for(full, None)) == ""


def test_words_rules_and_options_are_translated():
    """Every WORDS value, the rules help and the options' help are in the Spanish catalogue; the
    rules keep their markdown and notation."""
    for key, text in ng.WORDS.items():
        assert SPANISH.has(text), key
    words = ng.move_words(rig(), 0, ng.parse_move("X0B3"))
    assert words.full(ng.WORDS, SPANISH) == "Choza X en B3 C2 C3 C4 D3"
    assert (
        ng.move_words(rig(), 0, ng.Gwinea()).label(ng.WORDS, SPANISH) == "cantar ¡Gwinea! (termina la ronda)"
    )
    rules = SPANISH.gettext(ng.RULES_HELP)
    assert rules != ng.RULES_HELP and rules.startswith("**Nowa Gwinea**")
    assert len(rules) <= 2000  # one Discord message
    for kept in (
        "`F3C4`",
        "`remove F`",
        "`gwinea`",
        "`done`",
        "`repetición_difícil`",
        "**Opciones:**",
        "choza",
    ):
        assert kept in rules, kept
    assert rules.count("\n") == ng.RULES_HELP.count("\n")
    for option in config_options(ng.Config):
        assert SPANISH.has(option.help), option.name


def test_the_rules_help_says_what_all_the_water_means_with_both_variants():
    """The ruling: with ``water_target`` and ``fruit_for_all`` both on, a player who covered the
    number of water holes the round needs counts as having covered them all (no fruit points
    unless they called).  The help's rulings line says so, in English and in Spanish, and the
    option's own help says it too."""
    for text, rulings, fruit, option_name in (
        (ENGLISH.gettext(ng.RULES_HELP), "**Table rulings:**", "fruit", "`water_target`"),
        (SPANISH.gettext(ng.RULES_HELP), "**Reglas de la mesa:**", "fruta", "`meta_de_agua`"),
    ):
        (line,) = [row for row in text.splitlines() if row.startswith(rulings)]
        both = line.split(";")[-1]
        assert option_name in both and fruit in both, line
    (option,) = [o for o in config_options(ng.Config) if o.name == "fruit_for_all"]
    assert "water_target" in option.help and "water_target" in SPANISH.gettext(option.help)


def test_the_rules_help_says_how_a_round_ends_without_a_call():
    """The help's rulings say what the engine does when nobody calls: everyone saying ``done``
    ends the round as a deadline does, a tie on water goes to the first to reach it, and with
    ``fruit_for_all`` an unfinished village is no caller.  It no longer speaks of a broken
    village (every illegal hut is refused, so play never makes one), and the re-roll's 6 huts
    are for all 5 water holes.  In English and in Spanish."""
    for text, rulings, said in (
        (
            ENGLISH.gettext(ng.RULES_HELP),
            "**Table rulings:**",
            ("when all say `done`", "first there wins a tie", "not with `fruit_for_all`"),
        ),
        (
            SPANISH.gettext(ng.RULES_HELP),
            "**Reglas de la mesa:**",
            (
                "toda la mesa dice `done`",
                "en un empate, la primera en llegar",
                "no con `fruta_para_toda_la_mesa`",
            ),
        ),
    ):
        (line,) = [row for row in text.splitlines() if row.startswith(rulings)]
        assert all(words in line for words in said), line
        assert "broken" not in text and "incumple" not in text
        assert "5 water holes need 6+ huts" in text or "5 pozas de agua necesiten 6 chozas" in text
    s = build(play(rig(), 0, "X0B3"), 1, PARTIAL)
    s = play(s, 0, "I0D5")  # both 4 water holes, seat 1 first
    s = play(s, 0, "done")
    ended, events = ng.apply_move(s, 1, ng.Done())
    assert ended.history[-1]["how"] == "deadline" and ended.history[-1]["caller"] == 1
    assert "reached that count first" in events[-2].text


def test_the_animals_are_terms_read_as_the_boards_read_them():
    """Each totem animal is one term of the game, translated as the board images translate it."""
    assert ANIMALS == tuple(t.msg for t in ANIMAL_TERMS)
    for animal in ANIMAL_TERMS:
        assert animal.context == "nowa_gwinea term" and untranslated(animal, wordless_ok=True) == []
        assert animal.in_words(SPANISH) == SPANISH.gettext(animal.msg) != animal.msg


def test_english_reads_as_it_is_written():
    """The English "language" (no catalogue) gives every sentence as its text."""
    english = language("en")
    _s, events = ng.apply_move(rig(), 0, ng.parse_move("X0B3"))
    assert events[0].words_for(0, english) == events[0].text
    with pytest.raises(MoveError) as caught:
        ng.parse_move("F9Z9")
    assert caught.value.said.in_words(english) == str(caught.value)


def test_sentences_survive_a_game_saved_mid_round():
    """A state saved and loaded goes on giving the same sentences (the state keeps no sentence)."""
    s = build(rig(), 0, PARTIAL)
    back = ng.from_dict(json.loads(json.dumps(ng.to_dict(s))))
    a = ng.apply_move(s, 0, ng.parse_move("L0E2"))[1]
    b = ng.apply_move(back, 0, ng.parse_move("L0E2"))[1]
    assert a == b and [Event.from_dict(e.to_dict()) for e in a] == a


def test_a_random_refusal_sample_is_kept(seed=5):
    """Typed nonsense of every shape is refused by a kept sentence quoting it."""
    rng = random.Random(seed)
    for _ in range(50):
        text = "".join(rng.choice("FIXZ019AH -remove") for _ in range(rng.randrange(1, 9)))
        try:
            move = ng.parse_move(text)
        except MalformedMove as refusal:
            check_refusal(refusal)
            assert refusal.said.args["text"] == quoted(text)
            continue
        try:
            ng.apply_move(build(rig(), 0, ["X0B3"]), 0, move)
        except MoveError as refusal:
            check_refusal(refusal)


@pytest.mark.parametrize("side", [ng.Side.STANDARD, ng.Side.HARD])
def test_a_round_of_one_board_each_names_whose_board_is_which(side):
    """With one board each, the round's announcement names each player's board ("one board
    each: Ana 3, Beto 14, Carla 15"), in both languages, not a bare list of numbers; with the same
    board for everyone it names the one board."""
    names = ["Ana", "Beto", "Carla"]
    state = ng.new_game(ng.Config(players=3, side=side, boards=ng.Deal.EACH), 3, 7)
    state, events = ng.apply_move(state, TABLE, ng.Timeout())
    (round_two,) = [e for e in events if e.kind == "round"]
    check_event(round_two)
    each = ", ".join(f"{name} {board}" for name, board in zip(names, state.boards, strict=True))
    english = name_seats(round_two.text, names)
    assert english.startswith(f"Round 2 of 9: one board each ({each}); the die shows the "), english
    spanish = name_seats(round_two.words_for(None, SPANISH), names)
    assert spanish.startswith(f"Ronda 2 de 9: un tablero por persona ({each}); en el dado sale "), spanish

    shared = ng.new_game(ng.Config(players=3, side=side), 3, 7)
    shared, events = ng.apply_move(shared, TABLE, ng.Timeout())
    (round_two,) = [e for e in events if e.kind == "round"]
    assert round_two.text.startswith(f"Round 2 of 9: board {shared.boards[0]}; the die shows the ")


@pytest.mark.parametrize("listed", ["1,1", "2, 1, 2"])
def test_hard_seats_naming_a_seat_twice_is_refused(listed):
    """hard_seats lists each seat once: a seat named twice (which the lobby then showed as
    "seats 1,1 play the hard side") is refused, saying which seat and how to write the list."""
    with pytest.raises(SetupError) as caught:
        ng.Config(players=2, hard_seats=listed).validate()
    check_refusal(caught.value)
    assert "names seat" in str(caught.value) and "twice" in str(caught.value), str(caught.value)
    spanish = caught.value.said.in_words(SPANISH)
    assert "dos veces" in spanish and "'1,2'" in spanish, spanish


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("listed", ["5", "0", "x", "1,1", "²", "1,①"])  # (str.isdigit takes ² and ①)
def test_a_refused_hard_seats_list_is_shown_one_this_game_takes(players, listed):
    """The example a refused hard_seats list is shown is one the same game accepts: two players
    were told to write it "like '1,3'", which names a seat their game does not have, and a
    player alone was told of "seat numbers 1 to 1 separated by commas"."""
    with pytest.raises(SetupError) as caught:
        ng.Config(players=players, hard_seats=listed).validate()
    check_refusal(caught.value)
    english, spanish = str(caught.value), caught.value.said.in_words(SPANISH)
    examples = re.findall(r"(?:like|only be) '([0-9,]+)'", english)
    assert examples, english
    for example in examples:
        assert ng.Config(players=players, hard_seats=example).hard_seat_set(), (example, english)
        assert f"'{example}'" in spanish, spanish
    assert "1 to 1" not in english, english


def test_hard_seats_written_in_another_scripts_digits_name_their_seats():
    """A decimal digit of any script is a seat number ('١' is Arabic-Indic one); a superscript or
    circled one is not a decimal digit and is refused, above."""
    assert ng.Config(players=2, hard_seats="١").hard_seat_set() == frozenset({0})
