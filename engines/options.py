"""A game's options: what a ``Config`` offers (:func:`config_options`), a ``Config`` built
and checked from option values typed by people (:func:`config_from_options`), and the values
of a ``Config`` as plain JSON (:func:`options_of`).  Re-exported by :mod:`engines.core`.

Imports the standard library and :mod:`engines.sentences` only.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.sentences import Said, SetupError, echo, option_name, said

# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One setting a player chooses when opening a game (read from ``Config``)."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    always_said: bool = False
    """Said wherever the options are listed even at its default (a choice between equals, such
    as Guanga's modes, where "standard rules" would leave the game's mode unsaid)."""


def config_options(config_cls: type) -> list[Option]:
    """The options of a game's ``Config``, for lobbies and command lines.

    A field's metadata may carry ``help``, ``choices`` and ``always_said``; an ``Enum``
    field's choices are its values.  The ``players`` field is not an option: the
    table sets it from the seats.
    """
    out: list[Option] = []
    hints = {f.name: f.type for f in dataclasses.fields(config_cls)}
    for f in dataclasses.fields(config_cls):
        if f.name == "players":
            continue
        default = f.default if f.default is not dataclasses.MISSING else None
        kind = type(default) if default is not None else str
        choices = f.metadata.get("choices")
        if isinstance(default, enum.Enum):
            choices = tuple(m.value for m in type(default))
            kind = type(default)
        out.append(
            Option(
                name=f.name,
                kind=kind,
                default=default.value if isinstance(default, enum.Enum) else default,
                help=f.metadata.get("help", str(hints[f.name])),
                choices=tuple(choices) if choices is not None else None,
                always_said=bool(f.metadata.get("always_said", False)),
            )
        )
    return out


def _coerce(option: Option, raw: Any) -> Any:
    if isinstance(raw, str):
        text = raw.strip()
        if option.kind is bool:
            low = text.lower()
            if low in {"1", "true", "yes", "on", "y"}:
                return True
            if low in {"0", "false", "no", "off", "n"}:
                return False
            raise SetupError(
                "{option} must be yes or no, not {value}", option=option_name(option.name), value=echo(raw)
            )
        if option.kind is int:
            try:
                return int(text)
            except ValueError:
                raise SetupError(
                    "{option} must be a whole number, not {value}",
                    option=option_name(option.name),
                    value=echo(raw),
                ) from None
        if isinstance(option.kind, type) and issubclass(option.kind, enum.Enum):
            for member in option.kind:
                if str(member.value).lower() == text.lower() or member.name.lower() == text.lower():
                    return member
            allowed = ", ".join(str(c) for c in option.choices or ())
            raise SetupError(
                "{option} must be one of {allowed}, not {value}",
                option=option_name(option.name),
                allowed=allowed,
                value=echo(raw),
            )
        return text
    if (
        isinstance(option.kind, type)
        and issubclass(option.kind, enum.Enum)
        and not isinstance(raw, enum.Enum)
    ):
        return _coerce(option, str(raw))
    return raw


def config_from_options(config_cls: type, players: int, options: Mapping[str, Any] | None = None) -> Any:
    """Build and validate a ``Config`` from option values (strings allowed).

    Unknown option names and values outside their choices raise
    :class:`SetupError` naming what is allowed.
    """
    options = dict(options or {})
    known = {o.name: o for o in config_options(config_cls)}
    kwargs: dict[str, Any] = {}
    for name, raw in options.items():
        if raw is None:
            continue
        if name not in known:
            allowed: Said | str = "none"
            for i, known_name in enumerate(sorted(known)):  # each as the reader's client shows it
                shown = option_name(known_name)
                allowed = shown if i == 0 else said("{first}, {then}", first=allowed, then=shown)
            raise SetupError(
                "unknown option {option}; this game's options are: {allowed}",
                option=echo(name),
                allowed=allowed,
            )
        opt = known[name]
        value = _coerce(opt, raw)
        if opt.choices is not None:
            plain = value.value if isinstance(value, enum.Enum) else value
            if plain not in opt.choices:
                allowed = ", ".join(str(c) for c in opt.choices)
                raise SetupError(
                    "{option} must be one of {allowed}, not {value}",
                    option=option_name(name),
                    allowed=allowed,
                    value=echo(raw),
                )
        kwargs[name] = value
    field_names = {f.name for f in dataclasses.fields(config_cls)}
    if "players" in field_names:
        kwargs["players"] = players
    config = config_cls(**kwargs)
    config.validate()
    return config


def new_config_from_options(config_cls: type, players: int, options: Mapping[str, Any] | None = None) -> Any:
    """:func:`config_from_options` for a new table (a lobby, a league, the queue): also refused
    when the options contradict each other, which a ``Config`` says in its optional
    ``check_new`` (kept out of ``validate``, so that a game stored with them still loads)."""
    config = config_from_options(config_cls, players, options)
    check = getattr(config, "check_new", None)
    if check is not None:
        check()
    return config


def options_of(config: Any) -> dict[str, Any]:
    """A config's chosen options as plain JSON values (``players`` excluded)."""
    out = {}
    for f in dataclasses.fields(config):
        if f.name == "players":
            continue
        value = getattr(config, f.name)
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


_BETWEEN = re.compile(r"\s+|,(?=[A-Za-z_][A-Za-z0-9_]*=)")
"""What separates two options written in a line: spaces, or a comma before the next ``name=``
(a comma inside a value stays there: ``hard_seats=1,2``)."""


def parse_option_text(text: str | None) -> dict[str, str]:
    """``mode=apprentice stoppers=true`` (spaces or commas between; a value may hold commas, as
    ``hard_seats=1,2`` does) as option values, for :func:`config_from_options`; a part that is
    no ``name=value`` raises :class:`SetupError` saying how options are written."""
    out: dict[str, str] = {}
    for part in _BETWEEN.split(re.sub(r"\s*,\s*", ",", (text or "").strip())):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise SetupError(
                "{text} is not an option; write options as name=value, e.g. mode=apprentice",
                text=echo(part, 40),
            )
        value = value.rstrip(",")
        if out.get(name, value) != value:
            raise given_twice(name, out[name], value)
        out[name] = value
    return out


def given_twice(name: str, first: str, second: str) -> SetupError:
    """An option given two values in one text: which one counts is not for the table to guess."""
    return SetupError(
        "{name} is given twice ({first} and {second}); give it once",
        name=echo(name, 40),
        first=echo(first, 40),
        second=echo(second, 40),
    )
