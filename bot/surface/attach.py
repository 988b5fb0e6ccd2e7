"""Pictures as Discord attachments, each with its alt text (:mod:`bot.alt`).

Every picture the bot sends is made here, so none goes out without a description.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from bot.alt import LIMIT, fit, sentences


def picture(data: bytes, filename: str, description: str, names: Sequence[str] = ()) -> discord.File:
    """``data`` as an attachment named ``filename`` whose alt text is ``description`` made plain
    (the players' ``names`` in it kept as they wrote them, see :func:`bot.alt.sentences`), cut to
    Discord's 1,024 characters at a sentence, should it be longer."""
    description = fit(sentences(description, names), LIMIT)
    return discord.File(io.BytesIO(data), filename=filename, description=description)


def gallery_item(file: discord.File) -> discord.MediaGalleryItem:
    """A components v2 media gallery item showing ``file``, with the same alt text."""
    return discord.MediaGalleryItem(f"attachment://{file.filename}", description=file.description or None)
