"""One way to run a command or a component's callback: :func:`guarded`.

The table's guard (``Table.guard``) acknowledges the interaction, turns a refusal into a private
answer in the asker's language and a crash into a logged apology.  ``@guarded()`` puts a cog's
command or a button's callback through it, in place of an inner ``work()`` closure per command.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord

P = ParamSpec("P")
S = TypeVar("S")
Handler = Callable[Concatenate[S, discord.Interaction, P], Coroutine[Any, Any, None]]


def guarded(*, defer: bool = True) -> Callable[[Handler[S, P]], Handler[S, P]]:
    """Run the decorated ``async def f(self, interaction, ...)`` through the table's guard.

    With ``defer`` (the default) the interaction is acknowledged privately first, so the body
    answers with ``Table.reply``.  The wrapper keeps the body's signature, its annotations
    evaluated where the body was written, so that discord.py reads the command's options from
    it as before.
    """

    def wrap(body: Handler[S, P]) -> Handler[S, P]:
        @functools.wraps(body)
        async def run(self: S, interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
            async def work() -> None:
                await body(self, interaction, *args, **kwargs)

            table: Any = getattr(interaction.client, "table")  # noqa: B009 (the bot's, typed loosely)
            await table.guard(interaction, work, defer=defer)

        del run.__wrapped__  # discord.py must read the signature below, not the body's strings
        run.__signature__ = inspect.signature(body, eval_str=True)  # type: ignore[attr-defined]  # read by inspect
        return run

    return wrap
