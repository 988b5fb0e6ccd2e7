"""The base of the persistent buttons and selects: :class:`Persistent`.

A component that must keep working after a restart (and on messages posted long ago) is a
:class:`discord.ui.DynamicItem` whose ``custom_id`` carries what it acts on.  A subclass gives
its ``template`` (a regular expression; the named groups it annotates are its fields), builds its
component when posted (labelled in the reader's language with :func:`button`), and says what a
click does in :meth:`Persistent.clicked`.  The base turns a clicked ``custom_id`` back into the
subclass's fields and puts the click through the guard (:class:`bot.surface.replies.Replies`),
acknowledged privately first unless the subclass sets ``defer = False``.  The ``custom_id`` texts
never change, so the buttons on messages already posted keep working after an upgrade.

Imports: discord, :mod:`bot.surface.replies`, languages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, Generic, Self, TypeVar

import discord

from bot.surface.replies import Replies, part_of
from languages import ENGLISH, Language

I = TypeVar("I", bound=discord.ui.Item)  # noqa: E741 (the wrapped item, as discord.py names it)


def button(
    label: str,
    custom_id: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    t: Language | None = ENGLISH,
) -> discord.ui.Button:
    """A button labelled ``label`` in ``t`` (``None``: the label as it is, a move's notation)."""
    return discord.ui.Button(
        label=t.gettext(label) if t is not None else label, style=style, custom_id=custom_id
    )


# How a field's text is read, by its annotation: a number (an optional one that is absent reads
# as 0), a text, or yes/no.
READERS: dict[str, Callable[[str], object]] = {
    "int": lambda text: int(text or 0),
    "str": str,
    "bool": lambda text: text == "yes",
}


class Persistent(discord.ui.DynamicItem[I], Generic[I], template=r"(?!)"):
    """A component rebuilt from its ``custom_id``; a click runs :meth:`clicked` through the guard."""

    fields: ClassVar[dict[str, Callable[[str], object]]] = {}  # template group -> how its text is read
    defer: ClassVar[bool] = True  # acknowledge the click privately before :meth:`clicked` runs

    def __init_subclass__(cls, *, template: str | re.Pattern[str]) -> None:
        """The fields are the template's groups that the subclass annotates (``session_id: int``)."""
        super().__init_subclass__(template=template)
        kinds = vars(cls).get("__annotations__", {})
        groups = cls.__discord_ui_compiled_template__.groupindex
        cls.fields = {name: READERS[kinds[name]] for name in groups if kinds.get(name) in READERS}

    def __init__(self, item: I, **values: object):
        super().__init__(item)
        vars(self).update(values)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> Self:
        clicked = cls.__new__(cls)  # rebuilt from the clicked component, its label as posted
        values = {k: read(match[k]) for k, read in cls.fields.items()}
        discord.ui.DynamicItem.__init__(clicked, item)
        vars(clicked).update(values)
        return clicked

    async def callback(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, Replies).guard(
            interaction, lambda: self.clicked(interaction), defer=self.defer
        )

    async def clicked(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError
