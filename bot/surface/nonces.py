"""The nonce of a post that a stop may have the bot send again: told once within Discord's minutes.

A board (with the lines and note it carries), the message telling a game's abandon and a results
card are recorded as posted once Discord has taken them.  A process stopped between the two (a
crash, a deploy) finds them untold at its next start, and its catch-up or the ``board`` job's try
posts them again.  Discord's create message takes a ``nonce`` with ``enforce_nonce`` (discord.py
sends it with every ``send(nonce=...)``): when the same author created a message with that nonce in
the past few minutes, Discord creates none and answers with that message, which the bot then records
as posted as it would a new one.  So these posts carry a nonce made here, the same each time the
same thing is told and different for anything else; past Discord's few minutes a repeat is posted
again (at least once, as before).  A post a person asks for on purpose (``/game board``) keeps
discord.py's random nonce: it must post anew.

Imports: :mod:`bot.sessions` (types).
"""

from __future__ import annotations

import hashlib
import json

from bot.sessions import Session

LENGTH = 25
"""The most characters Discord takes in a nonce."""

BOARD, ABANDON, LINES, CARD = "b", "a", "l", "r"
"""What a post tells: a board, a game's abandon, lines told after the abandon, its results card."""


def post_nonce(session: Session, kind: str, *told: object) -> str:
    """The nonce of ``session``'s post of ``kind`` telling ``told`` (what tells it apart from the
    game's other posts of that kind: a board's, the board it follows, the last move it tells and
    the sentences the ``board`` job handed it).  Not its text: a board's says the time left on a
    clock, which a restart reads anew, and a restart's telling lacks the words handed to the post
    it repeats (an answer's line), which only the stopped process had.

    ``kind`` and the game's number lead it, for a reader of the log; the rest is a hash of those,
    ``told`` and what makes the game itself unique where numbers might repeat (its channel, seed
    and creation, should a database restored from a backup give a number out again), up to
    :data:`LENGTH` characters."""
    row = session.row
    head = f"{kind}{row.id}."
    if len(head) > 12:  # (a number that long: the hash tells the game)
        head = kind
    game = [row.id, row.channel_id, row.seed, row.created_at, kind, *told]
    text = json.dumps(game, sort_keys=True, default=str)  # (what the ``board`` job keeps is JSON)
    return head + hashlib.sha256(text.encode()).hexdigest()[: LENGTH - len(head)]
