"""A refusal that starts with a name keeps it as its owner wrote it: the sentence's capital goes
on the first word only when that word is the bot's own ("La zona", never "Ana's" for "ana's")."""

from __future__ import annotations

import languages
from bot.league.errors import LeagueError
from bot.league.names import shown
from bot.sessions import Refusal, named, refusal, seats_said, starts_with_name
from bot.surface import written
from bot.surface.replies import sentence
from engines.core import IllegalMove

ES = languages.language("es")


def answer(exc: BaseException, t: languages.Language) -> str:
    """The refusal as :meth:`bot.surface.replies.Replies.guard` answers it."""
    return sentence(refusal(exc, t, written.name), t, as_written=starts_with_name(exc, t))


def test_an_engine_refusal_naming_a_seat_keeps_the_players_name():
    exc = named(
        IllegalMove(
            "{player}'s preparation zone has no {card} (it holds {cards}); visible cards are: {places}",
            player="{p1}",
            card="9A",
            cards="1P",
            places="x1",
        ),
        ["bob", "ana_b"],
    )
    assert answer(exc, languages.ENGLISH).startswith("ana\\_b's preparation zone has no 9A")
    assert answer(exc, ES).startswith("La zona de preparación de ana\\_b no tiene 9A")


def test_a_league_refusal_keeps_the_members_and_the_leagues_names():
    exc = LeagueError(
        "{name} is already signed up for {league}", name=shown("dj *bo*"), league=shown("otoño")
    )
    assert answer(exc, languages.ENGLISH) == "dj \\*bo\\* is already signed up for otoño."
    assert answer(exc, ES) == "dj \\*bo\\* ya se ha inscrito en otoño."
    over = LeagueError("{league} is over", league=shown("otoño"))
    assert answer(over, languages.ENGLISH) == "otoño is over."
    # the bot's own words still start with a capital
    assert answer(LeagueError("you are not signed up for {league}", league="otoño"), ES) == (
        "No te has inscrito en otoño."
    )


def test_a_name_that_only_looks_like_the_first_word_gives_no_reason_to_keep_it():
    """A player named "t", or "the": the refusal's own first word still takes its capital."""
    for name in ("t", "the", "no"):
        exc = named(Refusal("the seat of {player} is not yours", player=seats_said([0])), [name])
        assert answer(exc, languages.ENGLISH) == f"The seat of {name} is not yours."
        said = LeagueError("no league here is called {name}", name=name)
        assert answer(said, languages.ENGLISH) == f"No league here is called {name}."
    # and a name put first by the Spanish words only is kept there, not in English
    exc = named(
        IllegalMove(
            "{player}'s preparation zone has no {card} (it holds {cards}); visible cards are: {places}",
            player="{p0}",
            card="9A",
            cards="1P",
            places="x1",
        ),
        ["la"],
    )
    assert answer(exc, languages.ENGLISH).startswith("la's preparation zone")
    assert answer(exc, ES).startswith("La zona de preparación de la no tiene")
