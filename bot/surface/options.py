"""A slash command's option values checked against what the command declares, before any is used.

Discord checks what its own client sends (types, ranges, lengths, choices), but an interaction
can be made by hand with any JSON value for any option: a text where a number is declared, an
integer past 2**64, a float where a whole number is wanted, a text longer than the command
allows, a value no choice offers.  discord.py passes most of these on unconverted (and a number
option it cannot convert fails before any error handler runs), so the command tree checks every
value here first: :func:`problem` names the first option whose value the command does not take,
what it takes, and what came.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from discord import AppCommandOptionType
from discord.app_commands import Command, Parameter

from engines.core import Said, echo, said
from languages import OPTION_CONTEXT

INTEGER_LIMIT = 2**53
"""Discord's integer and number options lie between -2**53 and 2**53."""

TEXT_LIMIT = 6000
"""Discord's longest text option."""

SHOWN = 40
"""The most characters of a value repeated in a refusal."""

SUBCOMMANDS = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)

# The value types of the options that name a Discord object (by its id), and how a refusal says it.
OBJECTS = {
    AppCommandOptionType.user: said("a member of this server"),
    AppCommandOptionType.channel: said("a channel of this server"),
    AppCommandOptionType.role: said("a role of this server"),
    AppCommandOptionType.mentionable: said("a member or a role of this server"),
    AppCommandOptionType.attachment: said("an attached file"),
}


@dataclass(frozen=True)
class Problem:
    """What is wrong with one option: ``sentence``, in words, with its values."""

    sentence: Said


def shown(value: object) -> str:
    """``value`` as a refusal repeats it: texts quoted, long texts and huge numbers cut short."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 100:
            return f"{'-' if value < 0 else ''}2**{value.bit_length() - 1}…"
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if len(value) > SHOWN:  # as typed, escaped for Discord's markdown (engines.core.echo)
            return echo(value[:SHOWN]) + f"… ({len(value)})"
        return echo(value)
    if value is None:
        return "null"
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def number_text(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def listed(items: Sequence[Said | str]) -> Said | str:
    """Items in a list in words, each put in the reader's language: ``a, b, c``."""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = said("{a}, {b}", a=item, b=out)
    return out


def option_name(name: str) -> Said:
    """An option's name as the reader's client shows it (``move``: ``jugada``)."""
    return Said(name, context=OPTION_CONTEXT)


def allowed(param: Parameter) -> Said:
    """What ``param`` takes, in words (its choices' names as the reader's client shows them)."""
    if param.choices:
        values = listed(
            [
                said("{value} ({name})", value=str(c.value), name=Said(c.name))
                if c.name != str(c.value)
                else Said(c.name)  # the name the reader's client shows for it (easy: fácil)
                for c in param.choices
            ]
        )
        return said("one of {choices}", choices=values)
    kind = param.type
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        low = param.min_value if param.min_value is not None else -INTEGER_LIMIT
        high = param.max_value if param.max_value is not None else INTEGER_LIMIT
        if kind is AppCommandOptionType.integer:
            return said("a whole number from {low} to {high}", low=number_text(low), high=number_text(high))
        return said("a number from {low} to {high}", low=number_text(low), high=number_text(high))
    if kind is AppCommandOptionType.string:
        low = int(param.min_value or 0)
        high = int(param.max_value if param.max_value is not None else TEXT_LIMIT)
        return said("a text of {low} to {high} characters", low=low, high=high)
    if kind is AppCommandOptionType.boolean:
        return said("true or false")
    return OBJECTS.get(kind, said("a value of this command"))


def fits(param: Parameter, value: object) -> bool:
    """Whether Discord's own client could have sent ``value`` for ``param``."""
    kind = param.type
    if param.choices:
        return type(value) is type(param.choices[0].value) and any(c.value == value for c in param.choices)
    if kind is AppCommandOptionType.string:
        low = param.min_value or 0
        high = param.max_value if param.max_value is not None else TEXT_LIMIT
        return isinstance(value, str) and low <= len(value) <= high
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        # exactly a JSON number (not a true or false), a whole one where one is wanted, finite
        # (a whole number past any float is refused by the range below, not converted)
        if type(value) is bool or not isinstance(value, (int, float)):
            return False
        if kind is AppCommandOptionType.integer and not isinstance(value, int):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        low = param.min_value if param.min_value is not None else -INTEGER_LIMIT
        high = param.max_value if param.max_value is not None else INTEGER_LIMIT
        return bool(max(low, -INTEGER_LIMIT) <= value <= min(high, INTEGER_LIMIT))
    if kind is AppCommandOptionType.boolean:
        return type(value) is bool
    if kind in OBJECTS:  # an id, as a text of digits, that Discord resolved
        return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
    return True


def command_options(data: Mapping[str, object]) -> list[object]:
    """The options of the (sub)command itself, below any subcommand group and subcommand."""
    options: object = data.get("options") or []
    while (
        isinstance(options, list)
        and len(options) == 1
        and isinstance(options[0], dict)
        and options[0].get("type") in SUBCOMMANDS
    ):
        options = options[0].get("options") or []
    return options if isinstance(options, list) else [options]


RESOLVED_IN = {
    AppCommandOptionType.user: ("users",),
    AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.attachment: ("attachments",),
}
"""Where Discord's ``resolved`` data holds what an option of each object type names."""


def resolved_by(param: Parameter, value: object, resolved: Mapping[str, object]) -> bool:
    """Whether the interaction's ``resolved`` data holds the object ``value`` names (Discord
    always sends it for a command: one whose option names nothing there is made by hand)."""
    for key in RESOLVED_IN.get(param.type, ()):
        found = resolved.get(key)
        if isinstance(found, Mapping) and value in found:
            return True
    return False


def problem(
    command: Command[Any, ..., Any],
    options: Sequence[object],
    *,
    focused: bool = False,
    resolved: Mapping[str, object] | None = None,
) -> Problem | None:
    """The first thing wrong with ``options`` (the interaction's raw options of ``command``), or
    None when every value is one the command takes; with ``resolved`` (a command's, not an
    autocomplete request's), an object option must name one it holds.  With ``focused`` (an
    autocomplete request) the value being typed is not checked: it is a partial text whatever
    its type."""
    params = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    for option in options:
        if not isinstance(option, dict):
            return Problem(said("This command has no option {option}.", option=shown(None)))
        name = option.get("name")
        if not isinstance(name, str) or name not in params:
            return Problem(
                said("This command has no option {option}.", option=shown(name))
            )  # not ours to name
        param = params[name]
        seen.add(name)
        if focused and option.get("focused"):
            continue
        value = option.get("value")
        well_formed = option.get("type") == param.type.value and "value" in option and fits(param, value)
        unresolved = (
            well_formed
            and resolved is not None
            and param.type in OBJECTS
            and not resolved_by(param, value, resolved)
        )
        if not well_formed or unresolved:
            return Problem(
                said(
                    "The option {option} must be {allowed} (got {got}).",
                    option=option_name(name),
                    allowed=allowed(param),
                    got=shown(int(str(value)) if unresolved else value),  # (an id: its digits, unquoted)
                )
            )
    if not focused:
        for name, param in params.items():
            if param.required and name not in seen:
                return Problem(
                    said(
                        "The option {option} is required: {allowed}.",
                        option=option_name(name),
                        allowed=allowed(param),
                    )
                )
    return None
