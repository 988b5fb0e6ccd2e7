"""Through the Discord stand-in: the slash commands registered with Spanish names and descriptions,
and ``/game language`` answered in the asker's language and stored per server."""

from __future__ import annotations

import languages
from bot.app import EXTENSIONS as BOT_EXTENSIONS
from bot.i18n import NAME_CONTEXT, OPTION_CONTEXT
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.standin import limits

# every command the bot registers (bot.app's extensions: /play, /queue and /gate too), and the test game
EXTENSIONS = (*BASE_EXTENSIONS, *(name for name in BOT_EXTENSIONS if name not in BASE_EXTENSIONS))
SPANISH = ("es-ES", "es-419")
ES = languages.language("es")


SUBCOMMANDS = (1, 2)  # Discord's option types of a subcommand and a subcommand group


def localized(obj: dict, field: str, *, name: bool) -> list[str]:
    """What is wrong with one field's Spanish localizations (``name``: a name, in its context: a
    command's or a group's, or an option's)."""
    english = obj[field]
    context = OPTION_CONTEXT if obj.get("type", 1) not in SUBCOMMANDS else NAME_CONTEXT
    wanted = ES.pgettext(context, english) if name else ES.gettext(english)
    table = obj.get(f"{field}_localizations") or {}
    if wanted == english:  # a proper name, the same in Spanish: Discord keeps no copy of it
        return [] if not any(table.get(loc) not in (None, english) for loc in SPANISH) else [f"{english!r}"]
    return [
        f"{field} {english!r}: {loc} is {table.get(loc)!r}" for loc in SPANISH if table.get(loc) != wanted
    ]


def walk(obj: dict, path: str) -> tuple[list[str], int]:
    problems = localized(obj, "name", name=True) + localized(obj, "description", name=False)
    count = 1
    for option in obj.get("options") or []:
        found, n = walk(option, f"{path} {option['name']}")
        problems += found
        count += n
    for choice in obj.get("choices") or []:
        problems += [f"{path} choice: {p}" for p in localized(choice, "name", name=False)]
        count += 1
    return problems, count


async def test_every_command_option_and_choice_is_registered_in_spanish(standin, bot_factory):
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        commands = standin.commands[standin.guild.id]
    # The stand-in refused nothing: the localizations follow Discord's rules (names, lengths, locales,
    # localized option names unique in a command), as limits.check_commands checks them again here.
    assert limits.check_commands(commands, is_global=False) == []
    problems: list[str] = []
    fields = 0
    for command in commands:
        found, n = walk(command, "/" + command["name"])
        problems += found
        fields += n
    assert problems == []
    assert fields > 150
    game = next(c for c in commands if c["name"] == "game")
    assert game["name_localizations"] == {"es-ES": "juego", "es-419": "juego"}
    join = next(o for o in game["options"] if o["name"] == "join")
    assert join["description_localizations"]["es-419"] == "Siéntate en la sala de este canal"


async def test_an_option_is_named_by_a_noun_though_its_command_is_a_verb(standin, bot_factory):
    """Option names have a context of their own: Tiwanaku's ``/tiwanaku move move:`` is
    ``/tiwanaku jugar jugada:`` (it was ``jugar jugar:``), its ``guess`` an "adivinación" (as the
    rulebook says, not a riddle), Guanga's ``claim`` a "reclamo", a league's ``start`` its "inicio"."""
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        commands = {c["name"]: c for c in standin.commands[standin.guild.id]}

    def option(path: str) -> dict:
        *names, last = path.split()
        node = commands[names[0]]
        for name in names[1:]:
            node = next(o for o in node["options"] if o["name"] == name)
        return next(o for o in node["options"] if o["name"] == last)

    move = option("tiwanaku move")
    assert move["name_localizations"]["es-ES"] == "jugar"
    assert option("tiwanaku move move")["name_localizations"]["es-ES"] == "jugada"
    assert option("tiwanaku divine guess")["name_localizations"]["es-419"] == "adivinación"
    assert option("guanga claim claim")["name_localizations"]["es-ES"] == "reclamo"
    assert ES.pgettext(NAME_CONTEXT, "claim") == "reclamar"


def test_the_stand_in_refuses_localizations_discord_refuses():
    base = {"name": "game", "description": "d", "type": 1}
    bad = [
        {**base, "name_localizations": {"es-ES": "Juego"}},  # not lowercase
        {**base, "name_localizations": {"es-ES": "mi juego"}},  # a space
        {**base, "name_localizations": {"es": "juego"}},  # not one of Discord's locales
        {**base, "description_localizations": {"es-ES": "x" * 101}},
        {**base, "description_localizations": {"es-ES": ""}},
        {
            **base,
            "options": [
                {"type": 3, "name": "a", "description": "d", "name_localizations": {"es-ES": "b"}},
                {"type": 3, "name": "b", "description": "d"},
            ],
        },
        {
            **base,
            "options": [
                {"type": 3, "name": "a", "description": "d", "name_localizations": {"es-ES": "c"}},
                {"type": 3, "name": "b", "description": "d", "name_localizations": {"es-ES": "c"}},
            ],
        },
        {
            **base,
            "options": [
                {
                    "type": 3,
                    "name": "a",
                    "description": "d",
                    "choices": [{"name": "x", "value": "x", "name_localizations": {"es-ES": "y" * 101}}],
                }
            ],
        },
    ]
    for command in bad:
        assert limits.check_commands([command], is_global=False), command
    good = {**base, "name_localizations": {"es-ES": "juego", "es-419": "juego"}}
    assert limits.check_commands([good], is_global=False) == []


async def test_game_language_is_answered_in_the_askers_language_and_stored_per_server(standin, bot_factory):
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    bob = standin.add_user("bob")
    admin = standin.guild.owner
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        shown = await (await standin.slash(ana, chan, "game language")).original()
        assert shown.ephemeral
        assert shown.content.startswith("Los tableros y mensajes públicos de este servidor están en inglés")
        refused = await (await standin.slash(ana, chan, "game language", choose="es")).original()
        assert "Solo los miembros con el permiso Gestionar servidor" in refused.content
        assert await bot.store.people.server_language(standin.guild.id) is None
        done = await (await standin.slash(admin, chan, "game language", choose="es")).original()
        assert done.content == (
            "This server's boards and public messages are in Spanish, as chosen with /game language."
        )
        assert await bot.store.people.server_language(standin.guild.id) == "es"
        shown = await (await standin.slash(bob, chan, "game language")).original()
        assert "are in Spanish" in shown.content
        await (await standin.slash(admin, chan, "game language", choose="server")).original()
        assert await bot.store.people.server_language(standin.guild.id) is None
        standin.guild.locale = "es-419"
        shown = await (await standin.slash(ana, chan, "game language")).original()
        assert "están en español, el idioma del servidor en Discord" in shown.content


async def test_me_answers_a_spanish_speaker_in_spanish_and_an_english_speaker_in_english(
    standin, bot_factory
):
    """A Spanish-speaking user (es-ES) in an English server: /me's answers and refusals in Spanish,
    stored the same as anyone's; an English speaker's answers stay English."""
    chan = standin.channel("games")
    ana = standin.add_user("ana")
    ana.locale = "es-ES"
    bob = standin.add_user("bob")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.me"))) as bot:
        await standin.wait_synced()
        shown = await (await standin.slash(ana, chan, "me show")).original()
        assert shown.ephemeral
        assert shown.content.startswith("**Tus ajustes** (los mismos en todos los servidores):")
        assert "Avisos de turno: una mención en el hilo de la partida" in shown.content
        assert "Recordatorios: cada 12 horas mientras te toque" in shown.content
        refused = await (await standin.slash(ana, chan, "me notify", time_zone="Mars/Olympus")).original()
        assert refused.content == (
            '⚠️ "Mars/Olympus" no es una zona horaria que conozca; usa un nombre como Europe/Madrid, '
            "America/Lima o UTC (empieza a escribir para verlas). No se cambió nada."
        )
        refused = await (await standin.slash(ana, chan, "me notify", quiet="5-5")).original()
        assert (
            "Las horas de silencio deben empezar y terminar a horas distintas (o usa off)." in refused.content
        )
        saved = await (await standin.slash(ana, chan, "me notify", where="dm", reminders=1)).original()
        assert saved.content.startswith("Guardado. **Tus ajustes**")
        assert "un mensaje directo" in saved.content and "cada hora mientras te toque" in saved.content
        assert (await bot.store.people.person(ana.id)).notify == "dm"
        not_away = await (await standin.slash(ana, chan, "me back")).original()
        assert not_away.content == "⚠️ No estás de descanso."
        away = await (await standin.slash(ana, chan, "me away", days=3)).original()
        assert away.content.startswith("Estás de descanso hasta el ")
        assert "Te quedan 27 días de descanso este año. /yo volver lo termina antes." in away.content
        back = await (await standin.slash(ana, chan, "me back")).original()
        assert back.content.startswith("¡Hola de nuevo! Tus relojes de turno vuelven a correr.")
        english = await (await standin.slash(bob, chan, "me show")).original()
        assert english.content.startswith("**Your settings** (the same in every server):")
        refused = await (await standin.slash(bob, chan, "me back")).original()
        assert refused.content == "⚠️ You are not away."
