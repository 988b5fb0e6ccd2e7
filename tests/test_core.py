"""The shared engine contract helpers in engines/core.py."""

from __future__ import annotations

import enum
import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol

import pytest

import engines
import engines.core
from engines.core import (
    Engine,
    Event,
    Outcome,
    SetupError,
    config_from_options,
    config_options,
    jsonable,
    name_seats,
    options_of,
    rank_by,
    rng_for,
    tie_figures,
)
from languages import language


class Mode(enum.Enum):
    EASY = "easy"
    HARD = "hard"


@dataclass(frozen=True)
class Config:
    players: int = 2
    mode: Mode = Mode.EASY
    extra: bool = False
    size: int = field(default=5, metadata={"help": "board size", "choices": (5, 9)})

    def validate(self) -> None:
        if self.size == 9 and self.players > 3:
            raise SetupError("the long board seats at most 3")


def test_rank_by_reports_the_tiebreak_that_decided():
    """Score first, then tiebreakers in order; the deciding tiebreak is named."""
    ranking, tiebreak = rank_by([0, 1, 2], [("score", {0: 5, 1: 5, 2: 7}), ("cards", {0: 1, 1: 3, 2: 0})])
    assert ranking == ((2,), (1,), (0,)) and tiebreak == "cards"
    ranking, tiebreak = rank_by([0, 1], [("score", {0: 4, 1: 4}), ("cards", {0: 2, 1: 2})])
    assert ranking == ((0, 1),) and tiebreak is None
    ranking, tiebreak = rank_by([0, 1, 2], [("s", {0: 1, 1: 2, 2: 3}), ("t", {0: 0, 1: 0, 2: 0})])
    assert ranking == ((2,), (1,), (0,)) and tiebreak is None


def test_outcome_places_share_ties():
    """Tied seats share a place; the next place skips past them."""
    o = Outcome((3, 3, 1), ((0, 1), (2,)), "done")
    assert o.winners == (0, 1) and o.place_of(2) == 3
    assert Outcome.from_dict(o.to_dict()) == o


def test_event_visibility_and_names():
    """Private events show their text to the seats named and the public text to others."""
    e = Event(
        "{p0} stole 5T from {p1}", visible_to=frozenset({0, 1}), public_text="{p0} stole a card from {p1}"
    )
    assert e.text_for(1) == e.text and e.text_for(2) == e.public_text and e.text_for(None) == e.public_text
    assert name_seats(e.text_for(None), ["ann", "bob"]) == "ann stole a card from bob"
    assert name_seats("{p2} moved") == "P3 moved"
    assert Event.from_dict(e.to_dict()) == e


def test_rng_for_is_deterministic_and_keyed():
    """The same seed and keys give the same draws; other keys give others."""
    assert rng_for(7, "die", 1).random() == rng_for(7, "die", 1).random()
    assert rng_for(7, "die", 1).random() != rng_for(7, "die", 2).random()


def test_options_from_text():
    """Options arrive as text from commands and are checked against their choices."""
    names = [o.name for o in config_options(Config)]
    assert names == ["mode", "extra", "size"]
    c = config_from_options(Config, 3, {"mode": "HARD", "extra": "yes", "size": "9"})
    assert c == Config(players=3, mode=Mode.HARD, extra=True, size=9)
    assert options_of(c) == {"mode": "hard", "extra": True, "size": 9}
    with pytest.raises(SetupError, match="mode must be one of easy, hard"):
        config_from_options(Config, 2, {"mode": "medium"})
    with pytest.raises(SetupError, match="size must be one of 5, 9"):
        config_from_options(Config, 2, {"size": 7})
    with pytest.raises(SetupError, match="yes or no") as refused:
        config_from_options(Config, 2, {"extra": "perhaps"})
    assert refused.value.said.in_words(language("es")) == 'extra debe ser yes o no, no "perhaps"'
    with pytest.raises(SetupError, match='unknown option "colour"') as refused:
        config_from_options(Config, 2, {"colour": "red"})
    spanish = refused.value.said.in_words(language("es"))
    # each option as a Spanish client shows it (mode is a slash option: modo)
    assert spanish == 'opción desconocida: "colour"; las opciones de este juego son: extra, modo, size'
    with pytest.raises(SetupError, match="at most 3"):
        config_from_options(Config, 4, {"size": 9})


def test_jsonable_flattens_values():
    """Views become plain JSON: dataclasses, enums, sets and tuples."""
    assert jsonable({"a": (1, Mode.EASY), "b": {3, 1}, "c": Config()}) == {
        "a": [1, "easy"],
        "b": [1, 3],
        "c": {"players": 2, "mode": "easy", "extra": False, "size": 5},
    }


def test_registry_names_the_five_games():
    """Every game is registered with its player range, and unknown names are refused."""
    assert {"guanga", "tiwanaku", "pachakuna", "nowa_gwinea", "guacamole"} <= set(engines.GAMES)
    assert engines.get("pachakuna").min_players == engines.get("pachakuna").max_players == 2
    with pytest.raises(KeyError, match="no game called 'chess'"):
        engines.get("chess")


def _members(protocol: type) -> set[str]:
    """The names a Protocol class asks for, its bases' included."""
    out: set[str] = set()
    for cls in protocol.__mro__:
        if cls not in (Protocol, Generic, object):
            out |= set(cls.__dict__.get("__annotations__", {}))
            out |= {name for name in vars(cls) if not name.startswith("_")}
    return out


def test_the_engine_protocol_is_the_documented_contract():
    """engines/core.py's docstring lists the contract; the Protocol names exactly those names."""
    doc = engines.core.__doc__ or ""
    listing = doc.partition("alike::")[2].partition("What is public.")[0]
    functions, constants = listing.split("plus the constants")
    documented = (
        set(re.findall(r"(?m)(?:^\s*|\s{2,})(\w+)\(", functions))
        | {"Config"}
        | set(re.findall(r"``([A-Z_]+)``", constants))
    )
    assert documented == _members(Engine) - {"__name__"}


@pytest.mark.parametrize(
    "game", sorted(n for n, i in engines.GAMES.items() if i.engine.startswith("engines."))
)
def test_every_engine_package_has_the_contract_at_run_time(game):
    """Each game's package has every member of the Engine protocol, each function taking the
    arguments the protocol passes it, and each constant of the type it says (the type checker
    holds the packages to the same protocol before they run)."""
    module = importlib.import_module(engines.get(game).engine)
    assert sorted(name for name in _members(Engine) if not hasattr(module, name)) == []
    constants = {
        "TITLE": str,
        "MIN_PLAYERS": int,
        "MAX_PLAYERS": int,
        "EDITION": int,
        "RULES_HELP": str,
        "KINDS": tuple,
        "WORDS": Mapping,
        "Config": type,
        "__name__": str,
    }
    for name in sorted(_members(Engine)):
        value = getattr(module, name)
        if name in constants:
            assert isinstance(value, constants[name]), name
            continue
        wanted = inspect.signature(getattr(Engine, name)).parameters.values()
        positional = [p for p in wanted if p.kind is p.POSITIONAL_ONLY][1:]  # without self
        keywords = {p.name: None for p in wanted if p.kind is p.POSITIONAL_OR_KEYWORD}
        inspect.signature(value).bind(*(None for _ in positional), **keywords)  # TypeError if not


def test_tie_figures_say_what_the_deciding_tiebreaker_weighed_for_the_seats_it_separated():
    """Only the groups level on the score and on every tiebreaker before it, and apart on it, best
    first; a group an earlier tiebreaker decided is not given another's figures."""
    keys = [
        ("score", {0: 8, 1: 8, 2: 5, 3: 5, 4: 5}),
        ("more dishes", {0: 2, 1: 1, 2: 1, 3: 1, 4: 1}),
        ("fewer cards", {0: -6, 1: -3, 2: -4, 3: -2, 4: -4}),
    ]
    ranking, used = rank_by(range(5), keys)
    assert ranking == ((0,), (1,), (3,), (2, 4)) and used == "fewer cards"
    # seats 0 and 1 were apart on dishes already: no figures of cards for them
    assert tie_figures(keys, "fewer cards", abs) == "{p3} 2, {p2} 4, {p4} 4"
    assert tie_figures(keys, "more dishes") == "{p0} 2, {p1} 1"
    level = [("score", {0: 3, 1: 3}), ("more dishes", {0: 1, 1: 1})]
    assert tie_figures(level, "more dishes") is None
