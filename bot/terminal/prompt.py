"""The terminal table's prompt and its words: reading a line (with line editing on a
terminal), the table's own commands in English and in the game's language, the legal moves by
kind, the result, the folder a game's boards go to, and a computer's "thinking..." notice.

Imports :mod:`bot.choices`, :mod:`engines` and :mod:`languages`; no Discord.
"""

from __future__ import annotations

import itertools
import os
import re
import secrets
import textwrap
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO, TypeVar

import engines
from bot.choices import entries, entries_by_kind, group_moves, kind_label
from engines.core import Engine, Outcome, name_seats
from languages import ENGLISH, SOURCE, Language, available, language, normalise


class Refused(Exception):
    """A command-line problem, said in one line."""


def _game_key(text: str) -> str:
    return re.sub(r"[\s-]+", "_", text.strip().lower()).replace("'", "").replace("\u2019", "")


def game_name(text: str) -> str:
    """``Guacamole``, ``nowa-gwinea``, ``NOWA_GWINEA`` and the title the table prints
    (``P'achakuna``, ``"Guanga: Tejidos Andinos"``) all name a registered game."""
    key = _game_key(text)
    if key not in engines.GAMES:
        key = {_game_key(engines.title(name)): name for name in engines.GAMES}.get(key, key)
    if key not in engines.GAMES:
        known = ", ".join(sorted(engines.GAMES))
        raise Refused(f"no game called {text!r}; the games are: {known}")
    return key


_ESCAPED = re.compile(r"\\([\\*_~|`<@\[\]])")
"""A character a refusal escaped for Discord (:func:`engines.sentences.echo`): ``\\*`` is a typed ``*``."""

_HELD = "\ue000"
"""Stands in for an escaped character while the markdown around it is taken away."""


def plain(text: str) -> str:
    """Discord markdown as plain text: no ``**bold**``, ``*italics*`` or ``code`` marks, and what
    a refusal escaped for Discord as it was typed (``"\\<b>"`` reads ``"<b>"``, ``"\\*"`` ``"*"``)."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(1))
        return _HELD

    text = _ESCAPED.sub(hold, text.replace(_HELD, ""))
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    text = text.replace("`", "")
    kept = iter(held)
    return re.sub(_HELD, lambda _: next(kept), text)


LIST_KIND = 12
"""Up to this many moves of one kind are listed one by one; more are grouped by their start."""


def moves_text(
    module: Engine,
    state,
    seat: int,
    legal: list,
    prefix: str = "",
    t: Language = ENGLISH,
    names: Sequence[str] = (),
) -> str:
    """Legal moves by kind, in the game's words and order (as the Discord menus offer them), a
    kind with many moves in groups by their start with a count each; in language ``t``.  When
    no more than :data:`LIST_KIND` moves are listed in all (the first turns of a game with few
    choices, or ``moves P1`` narrowed down), each is on a line of its own with its words, as a
    Discord choice reads (``P1A1: slot 1 (green kuntur) on A1``), seats named by ``names``."""
    chosen = [m for m in legal if str(m).lower().startswith(prefix.lower())]
    objects = {str(m): m for m in chosen}
    if not chosen:
        if prefix:
            return "  " + t.gettext("no legal move starts with {prefix!r}", prefix=prefix)
        return "  " + t.gettext("no legal moves")
    by_kind: dict[str, list[str]] = {}
    for move in chosen:
        by_kind.setdefault(module.move_words(state, seat, move).kind, []).append(str(move))
    order = [k.key for k in module.KINDS]
    if prefix:
        head = t.ngettext(
            "{n} legal move starting with {prefix}:",
            "{n} legal moves starting with {prefix}:",
            len(chosen),
            prefix=prefix,
        )
    else:
        head = t.ngettext("{n} legal move:", "{n} legal moves:", len(chosen))
    lines = ["  " + head]
    if len(chosen) <= LIST_KIND:
        return "\n".join(lines + worded(module, state, seat, chosen, t, names))
    grouped = None
    for kind in sorted(by_kind, key=lambda k: order.index(k) if k in order else len(order)):
        moves = by_kind[kind]
        title = kind_label(module, kind, t)
        if len(moves) <= LIST_KIND:
            parts = moves
        else:
            start = os.path.commonprefix(moves)
            groups = group_moves(moves, start, limit=None)
            parts = [
                members[0] if len(members) == 1 else f"{key}…({len(members)})" for key, members in groups
            ]
            grouped = grouped or next((key for key, members in groups if len(members) > 1), None)
            said = group_words(module, state, seat, [[objects[m] for m in ms] for _, ms in groups], t, names)
            if said is not None:  # each group is one of the game's (a basket's slot, a hut): named
                lines.append(f"  {title} ({len(moves)}):")
                lines += [f"    {part}: {words}" for part, words in zip(parts, said, strict=True)]
                continue
        lines.append(
            textwrap.fill(
                f"{title} ({len(moves)}): " + ", ".join(parts),
                width=100,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        )
    if grouped:
        lines.append(
            "  " + t.gettext("(key…(n) is a group of n moves: type 'moves {key}' to list them)", key=grouped)
        )
    return "\n".join(lines)


def group_words(
    module: Engine, state, seat: int, groups: list[list[object]], t: Language, names: Sequence[str]
) -> list[str] | None:
    """The words of each group of moves, when every group's moves share the words of one of the
    game's own groups (``Slot 1 (red amaru)``; a move alone: its own words), else None."""
    said = []
    for members in groups:
        found = entries(module, state, seat, members, seated(names), t)
        titles = {e.group_title if len(members) > 1 else e.full for e in found}
        if len(titles) != 1 or not next(iter(titles)):
            return None
        said.append(titles.pop())
    return said


def seated(names: Sequence[str]) -> list[str]:
    """The seats' names to put in a move's words (``P1``, ``P2``... when none are given)."""
    return list(names) or [f"P{i + 1}" for i in range(8)]  # (more than any game seats)


def worded(module: Engine, state, seat: int, moves: list, t: Language, names: Sequence[str]) -> list[str]:
    """Each of ``moves`` on a line of its own, its notation then its words, under its kind's
    title, kinds in the game's order."""
    lines = []
    for kind, found in entries_by_kind(module.KINDS, entries(module, state, seat, moves, seated(names), t)):
        lines.append("  " + kind_label(module, kind.key, t) + ":")
        lines += [f"    {e.move}: {e.full}" for e in found]
    return lines


def points(score: float, t: Language = ENGLISH) -> str:
    """``1 point``, ``12 points``, ``-3 points``, ``2.5 points`` (``2,5 puntos`` in Spanish)."""
    whole = float(score).is_integer()
    return t.ngettext(
        "{n} point",
        "{n} points",
        abs(int(score)) if whole else 2,
        n=t.number(score),
    )


class Folder:
    """The images and export of one game: ``<out>/<game>-seed<seed>/``, emptied of older images at
    start.  A folder that cannot be made or written is :class:`Refused`, in one line."""

    def __init__(self, out: str, game: str, seed: int):
        self.path = Path(out) / f"{game}-seed{seed}"
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for old in self.path.glob("*.png"):
                old.unlink()
        except OSError as exc:
            raise Refused(f"cannot write into {self.path} (--out {out}): {exc.strerror or exc}") from None

    def write(self, name: str, content: bytes) -> Path:
        target = self.path / name
        try:
            target.write_bytes(content)
        except OSError as exc:
            raise Refused(f"cannot write {target}: {exc.strerror or exc}") from None
        return target


COMMANDS = ("moves", "view", "describe", "huts", "help", "quit")
"""The table's own words at the prompt (besides moves); each also in the game's language."""


def command_word(t: Language, command: str) -> str:
    """The word for ``command`` in language ``t`` (``jugadas`` for ``moves`` in Spanish)."""
    words = {
        "moves": t.pgettext("terminal command", "moves"),
        "view": t.pgettext("terminal command", "view"),
        "describe": t.pgettext("terminal command", "describe"),
        "huts": t.pgettext("terminal command", "huts"),
        "help": t.pgettext("terminal command", "help"),
        "quit": t.pgettext("terminal command", "quit"),
    }
    return words[command]


def command_of(word: str, t: Language) -> str | None:
    """The command ``word`` names, in English or in ``t``, in any case; ``None`` for a move."""
    word = word.lower()
    if word == "exit":
        return "quit"
    for command in COMMANDS:
        if word in (command, command_word(t, command).lower()):
            return command
    return None


def commands_hint(t: Language, huts: bool = False) -> str:
    """The line that names the table's words, at the first prompt and after an unknown word, and
    says what Enter alone does."""
    words = {c: command_word(t, c) for c in COMMANDS}
    if huts:
        named = t.gettext(
            "Type a move, or {moves} (the legal moves), {view} (your picture), {describe} (the board in "
            "words), {huts} (the hut chart), {help} (the rules), {quit} (stop).",
            **words,
        )
    else:
        named = t.gettext(
            "Type a move, or {moves} (the legal moves), {view} (your picture), {describe} (the board in "
            "words), {help} (the rules), {quit} (stop).",
            **words,
        )
    return named + " " + t.gettext("When only one move is legal, Enter alone plays it.")


def only_move(module: Engine, state: object, seat: int) -> object | None:
    """The one legal move of ``seat``, or None when there are several (or none); reads at most two
    of them, as ``legal_moves`` may be a generator over a large space."""
    first = list(itertools.islice(module.legal_moves(state, seat), 2))
    return first[0] if len(first) == 1 else None


def random_seed() -> int:
    """A seed for a game when none is given: short enough to type again."""
    return secrets.randbelow(999_999) + 1


def checked_language(code: str | None) -> Language:
    """The language ``--language`` names; :class:`Refused` for one without a catalogue."""
    if (
        code is not None
        and normalise(code) == SOURCE
        and code.replace("-", "_").split("_")[0].lower() != SOURCE
    ):
        raise Refused(f"no language called {code!r}; the languages are: {', '.join(available())}")
    return language(code)


def line_editing(stdin: TextIO) -> bool:
    """Whether prompts read through ``input()`` with line editing and history: only when ``stdin``
    is a terminal and the standard ``readline`` module is there (it is imported here, then)."""
    try:
        if not stdin.isatty():
            return False
    except (AttributeError, ValueError):
        return False
    try:
        import readline  # noqa: F401  (importing it gives input() line editing and history)
    except ImportError:
        return False
    return True


class Prompter:
    """Asks for a line: through ``input()`` (line editing) on a terminal, else from ``stdin``.
    ``None`` at the end of input."""

    def __init__(self, stdin: TextIO, out: TextIO, editing: bool):
        self.stdin, self.out, self.editing = stdin, out, editing

    def __call__(self, prompt: str) -> str | None:
        if self.editing:
            try:
                return input(prompt)
            except EOFError:
                return None
        print(prompt, end="", file=self.out, flush=True)
        line = self.stdin.readline()
        return line or None


THINKING_AFTER = 1.0
"""Seconds a computer may think before the table says it is thinking."""

T = TypeVar("T")


def with_notice(compute: Callable[[], T], after: float, notice: Callable[[], None]) -> T:
    """``compute()``, calling ``notice()`` once if it has not returned within ``after`` seconds."""
    value: list[T] = []
    error: list[BaseException] = []
    done = threading.Event()

    def work() -> None:
        try:
            value.append(compute())
        except BaseException as exc:  # handed to the caller below
            error.append(exc)
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    if not done.wait(after):
        notice()
        done.wait()
    if error:
        raise error[0]
    return value[0]


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def print_outcome(result: Outcome, names: list[str], out: TextIO, t: Language = ENGLISH) -> None:
    """The result in language ``t``: why the game ended, each seat's place and score, the tiebreak."""
    print(t.gettext("Game over: {reason}", reason=name_seats(result.reason_in(t), names)), file=out)
    place = 1
    for group in result.ranking:
        for s in group:
            print(f"  {place}. {names[s]}: {points(result.scores[s], t)}", file=out)
        place += len(group)
    tiebreak = result.tiebreak_in(t)
    if tiebreak:
        print("  " + t.gettext("tiebreak: {tiebreak}", tiebreak=name_seats(tiebreak, names)), file=out)
