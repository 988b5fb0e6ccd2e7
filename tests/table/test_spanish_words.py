"""The table's own words in Spanish: what it built in English outside the catalogue before."""

from __future__ import annotations

import languages
from bot import texts
from bot.sessions import SessionService, damage_words

ES = languages.language("es")
G = 1


async def test_a_damaged_games_reason_is_told_in_the_readers_language(database):
    """A lobby whose saved options are unreadable: the reason is stored and logged in English, and
    a Spanish reader reads it in Spanish (it was "(its saved options is not readable JSON ...)")."""
    store = await database.open()
    service = SessionService(store)
    try:
        lobby = await service.lobby.create("nim", guild_id=G, channel_id=8, host_id=1, host_name="ann")
        await database.execute("UPDATE sessions SET options = '[' WHERE id = ?", lobby.id)
        (listed,) = await service.core.live(G)
        assert listed.damaged.startswith("its saved options is not readable JSON (")
        shown = texts.status_text(listed, 0, t=ES)
    finally:
        await store.close()
    assert "⚠️ Esta partida está dañada (el campo guardado «opciones» no es JSON legible (" in shown, shown
    assert "not readable" not in shown and "/juego abandonar" in shown


def test_every_damage_reason_reads_in_spanish_and_an_unknown_one_as_it_is():
    assert damage_words("no game called 'chess' is installed").in_words(ES) == (
        "no hay instalado ningún juego llamado 'chess'"
    )
    both = "its saved state is not readable JSON (x); its saved clock is not readable JSON (y)"
    assert damage_words(both).in_words(ES) == (
        "el campo guardado «estado» no es JSON legible (x); el campo guardado «reloj» no es JSON legible (y)"
    )
    assert damage_words("the engine failed when the turn timer ran out (boom)").in_words(ES) == (
        "el motor falló al agotarse el tiempo del turno (boom)"
    )
    assert damage_words("something older").in_words(ES) == "something older"
    assert damage_words(both).in_words() == both
