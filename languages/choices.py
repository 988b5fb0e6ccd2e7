"""The fixed choices of the slash commands that texts name: each choice's English name (what
Discord's menu shows, translated through the catalogue like every command text) and its value.

The cogs register these choices from here (:func:`bot.i18n.slash_choices`), and a text names one
with the placeholder ``{choice <command> <option> <value>}`` (``{choice tiwanaku new board long}``),
which :meth:`languages.Language.choice` fills with the name the reader's client shows in the
menu (``Long 5x9``, ``Largo 5x9``): a text never tells a player to pick a word their menu does
not show.  Standard library only.
"""

from __future__ import annotations

CHOICES: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("guanga new", "mode"): (
        ("Beginner (side A, free placement)", "beginner"),
        ("Apprentice (orders, shells, paired placement)", "apprentice"),
        ("Master (side B, shells from lines, blankets)", "master"),
        ("Artisan (Master, all joined to the centre)", "artisan"),
    ),
    ("guanga new", "cannot_place"): (
        ("Finish the round, then end (default)", "finish_round"),
        ("End the game at once", "end_now"),
    ),
    ("tiwanaku new", "board"): (
        ("Automatic (5x5 for 1-2 players, 5x9 for 3-4)", "auto"),
        ("Short 5x5 (1-2 players)", "short"),
        ("Long 5x9", "long"),
    ),
    ("pachakuna new", "board"): (
        ("Plan A", "A"),
        ("Plan B", "B"),
        ("Random fair board", "random"),
    ),
    ("nowa_gwinea new", "side"): (
        ("Standard (side A)", "standard"),
        ("Hard (side B)", "hard"),
    ),
    ("nowa_gwinea new", "boards"): (
        ("Everyone the same board", "shared"),
        ("One board each", "each"),
    ),
    ("league create", "no_show"): (
        ("The computer takes the seat", "computer"),
        ("The seat forfeits the game", "forfeit"),
        ("Score the game as it stands (Tiwanaku, Nowa Gwinea, Guacamole)", "score"),
    ),
    ("me notify", "where"): (
        ("A mention in the game's thread (default)", "thread"),
        ("A direct message", "dm"),
        ("Both", "both"),
        ("None", "none"),
    ),
}
"""(command path, option name): the option's choices as (English name, value), in menu order."""


def choice_name(path: str) -> str:
    """The English name of the choice ``path`` names (``"tiwanaku new board long"``: the command's
    path, the option, the value): ``Long 5x9``.  A path that names no choice is a mistake in a
    text, refused with a :class:`KeyError` saying which."""
    command, _, rest = path.rpartition(" ")
    command, _, option = command.rpartition(" ")
    for name, value in CHOICES.get((command, option), ()):
        if value == rest:
            return name
    raise KeyError(f"no choice {rest!r} for option {option!r} of /{command}")
