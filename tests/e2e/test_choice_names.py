"""A Spanish player reads the choices of a slash command's menu as their client shows them: the
guide of ``/tiwanaku reglas`` and the refusal of ``/guanga nueva`` name each choice by the name
the bot registered for it in Spanish (``Largo 5x9``), not by its English value (``long``)."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS

LOADED = (*BASE_EXTENSIONS, "cogs.tiwanaku", "cogs.guanga")


def menu(command: dict, sub: str, option: str, locale: str = "es-ES") -> dict[str, str]:
    """The choices of ``option`` of subcommand ``sub`` of a synced command, by value, as a client
    in ``locale`` shows them."""
    (subcommand,) = [o for o in command["options"] if o["name"] == sub]
    (found,) = [o for o in subcommand["options"] if o["name"] == option]
    return {c["value"]: (c.get("name_localizations") or {}).get(locale, c["name"]) for c in found["choices"]}


async def test_a_spanish_player_is_told_the_choices_their_menu_shows(standin, bot_factory):
    lectora = standin.add_user("lectora")
    lectora.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(LOADED)):
        await standin.wait_synced()
        boards = menu(standin.command("tiwanaku"), "new", "board")
        assert boards == {
            "auto": "Automático (5x5 para 1-2 jugadores, 5x9 para 3-4)",
            "short": "Corto 5x5 (1-2 jugadores)",
            "long": "Largo 5x9",
        }
        guide = (await (await standin.slash(lectora, chan, "tiwanaku rules")).original()).content
        assert f"`tablero` {boards['auto']}, {boards['short']} o {boards['long']}." in guide
        assert "auto/short/long" not in guide

        modes = menu(standin.command("guanga"), "new", "mode")
        answer = await standin.slash(lectora, chan, "guanga new", mode="master", stoppers=True, thread=False)
        refused = (await answer.original()).content
        assert refused == (
            f"⚠️ La variante de topes solo se juega en los modos {modes['beginner']} y {modes['apprentice']}."
        )
        assert not [m for m in standin.messages(chan) if not m.ephemeral]  # no game was opened
