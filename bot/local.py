"""Play any registered game in the terminal, hot-seat and against computer players.

    python -m bot.local guacamole --players 3 --computer 2 --computer-level strong --seed 7
    python -m bot.local --replay guacamole-game12.json --step

The board is written as a PNG after every turn into a folder of its own,
``<out>/<game>-seed<seed>/`` (``./pukllay-local`` by default), and the path is
printed; when the game ends its export (the format of ``/game export``, built by
:func:`bot.export.build` with the same privacy) is written there too.  Without
``--seed`` the seed is random, and printed so that the game can be played again.
Type a move in the game's notation at the prompt; ``moves`` lists
the legal ones by kind, in words (``moves r3`` those starting with ``r3``), ``view``
writes your private picture, ``describe`` prints the board in words (your own part last), ``huts`` (Nowa Gwinea) the hut chart, ``help``
shows the rules, ``quit`` stops; these words are named at the first prompt and
after an unknown word, and work in the game's language too.  On a terminal the
prompt has line editing and history (``readline``).  ``--language es`` writes the table's words, what the
engines say (where their sentences are kept for translation; English otherwise) and the board
images in Spanish.  Your own hand, order or village is shown as
text at each prompt.  Seats are numbered from 1; computer players take the
last seats, and in simultaneous rounds they keep your pace (one move per move
you make), as at the Discord table; a computer that thinks for more than a
second is said to be thinking.  With ``--replay FILE`` it replays a game
exported by ``/game export`` or by this table instead (see :mod:`bot.export`), checking every
move against the file and writing a board per turn; with ``--step`` it stops
after each move (Enter for the next, a number to go to that move).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import re
import secrets
import sys
import textwrap
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, TypeVar

import engines
from bot import export
from bot.choices import group_moves
from bot.describe import lines_of, sections_for
from bot.public import MoveRecord, option_words
from bot.sessions import Seat, Session
from bot.storage import MoveRow, SessionRow
from bot.time import pace
from engines.core import (
    DEFAULT_LEVEL,
    LEVELS,
    TABLE,
    Engine,
    MoveError,
    Outcome,
    SetupError,
    config_from_options,
    in_words,
    name_seats,
    options_of,
    rng_for,
    say,
)
from languages import ENGLISH, SOURCE, Language, available, language, normalise


class Refused(Exception):
    """A command-line problem, said in one line."""


def game_name(text: str) -> str:
    """``Guacamole``, ``nowa-gwinea`` and ``NOWA_GWINEA`` all name a registered game."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in engines.GAMES:
        known = ", ".join(sorted(engines.GAMES))
        raise Refused(f"no game called {text!r}; the games are: {known}")
    return key


def games_help() -> str:
    """Each game's player range and options, for ``--help``."""
    lines = ["games and their options (give them as --option NAME=VALUE):"]
    for name, info in sorted(engines.available().items()):
        lines.append(f"  {name}: {info.title}, {info.min_players}-{info.max_players} players")
        for option in info.options():
            allowed = f" ({' / '.join(str(c) for c in option.choices)})" if option.choices else ""
            lines.append(f"      {option.name}={option.default}{allowed}: {option.help}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot.local",
        description=__doc__.split("\n\n")[0],
        epilog=games_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "game",
        nargs="?",
        help="the game's name, in any case, with - or _: " + ", ".join(sorted(engines.GAMES)),
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        help="replay a game exported with /game export (or by this table), move by move, writing the boards",
    )
    parser.add_argument(
        "--step",
        action="store_true",
        help="with --replay: stop after each move (Enter for the next, a number to go to that move)",
    )
    parser.add_argument(
        "--players", type=int, help="how many seats (default: the game's minimum, at least 2)"
    )
    parser.add_argument("--computer", type=int, default=0, help="how many of the seats the computer plays")
    parser.add_argument(
        "--computer-level",
        choices=LEVELS,
        default=DEFAULT_LEVEL,
        help="how strong the computer players are (default: normal)",
    )
    parser.add_argument(
        "--computer-seconds",
        type=float,
        default=None,
        help="how long the strong level thinks per move (default: 1)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the seed for shuffling and generation (default: a random one, printed, so the game can "
        "be played again)",
    )
    parser.add_argument(
        "--out", default="pukllay-local", help="folder for the board images (one subfolder a game)"
    )
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--no-images", action="store_true", help="do not write board images")
    parser.add_argument(
        "--no-export",
        action="store_true",
        help="do not write the game's export (for --replay) into its folder when it ends",
    )
    parser.add_argument(
        "--language",
        default=None,
        help="the language of the table's words, the engines' sentences and the board images (es); "
        "default English",
    )
    parser.add_argument("--max-moves", type=int, default=100000, help="stop after this many moves")
    return parser.parse_args(argv)


def plain(text: str) -> str:
    """Discord markdown as plain text: no ``**bold**``, ``*italics*`` or ``code`` marks."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    return text.replace("`", "")


LIST_KIND = 12
"""Up to this many moves of one kind are listed one by one; more are grouped by their start."""


def moves_text(module: Engine, state, seat: int, legal: list, prefix: str = "", t: Language = ENGLISH) -> str:
    """Legal moves by kind, in the game's words and order (as the Discord menus offer them), a
    kind with many moves in groups by their start with a count each; in language ``t``."""
    chosen = [m for m in legal if str(m).lower().startswith(prefix.lower())]
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
    grouped = None
    for kind in sorted(by_kind, key=lambda k: order.index(k) if k in order else len(order)):
        moves = by_kind[kind]
        if len(moves) <= LIST_KIND:
            parts = moves
        else:
            start = os.path.commonprefix(moves)
            groups = group_moves(moves, start, limit=None)
            parts = [
                members[0] if len(members) == 1 else f"{key}…({len(members)})" for key, members in groups
            ]
            grouped = grouped or next((key for key, members in groups if len(members) > 1), None)
        title = say(module.WORDS, f"kind.{kind}", language=t)
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


def points(score: float, t: Language = ENGLISH) -> str:
    """``1 point``, ``12 points``, ``-3 points``, ``2.5 points``."""
    whole = float(score).is_integer()
    return t.ngettext(
        "{n} point",
        "{n} points",
        abs(int(score)) if whole else 2,
        n=str(int(score)) if whole else f"{score:g}",
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
    """The line that names the table's words, at the first prompt and after an unknown word."""
    words = {c: command_word(t, c) for c in COMMANDS}
    if huts:
        return t.gettext(
            "Type a move, or {moves} (the legal moves), {view} (your picture), {describe} (the board in "
            "words), {huts} (the hut chart), {help} (the rules), {quit} (stop).",
            **words,
        )
    return t.gettext(
        "Type a move, or {moves} (the legal moves), {view} (your picture), {describe} (the board in words), "
        "{help} (the rules), {quit} (stop).",
        **words,
    )


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
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = compute()
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    if not done.wait(after):
        notice()
        done.wait()
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    *,
    thinking_after: float = THINKING_AFTER,
    clock: Callable[[], str] = now_text,
) -> int:
    """The terminal table; ``thinking_after``: seconds before "thinking..." is said of a computer,
    ``clock``: the time recorded with each move in the export."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        args = parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error, already printed by argparse
        return int(exc.code or 0)
    ask = Prompter(stdin, out, editing=out is sys.stdout and line_editing(stdin))
    try:
        if args.replay is not None:
            if args.game is not None:
                raise Refused("--replay takes the game from the file; leave out the game's name")
            return replay(args, ask, out, err)
        if args.game is None:
            raise Refused("name a game to play (such as guacamole), or give --replay FILE")
        if args.step:
            raise Refused("--step is for --replay FILE")
        return play(args, ask, out, err, thinking_after=thinking_after, clock=clock)
    except Refused as exc:
        print(f"python -m bot.local: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        print("\nstopped", file=out)
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): say so once, and keep the interpreter's last flush of
        # standard output from failing again (the Python documentation's recipe).
        if out is sys.stdout:
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
        print("python -m bot.local: the output was closed before the end (piped into head?)", file=err)
        return 1


def replay(args: argparse.Namespace, ask: Prompter, out: TextIO, err: TextIO) -> int:
    """Replay an exported game: each move with its lines, a board per turn, and the result checked.
    With ``--step`` it stops after each move: Enter for the next, a number to go to that move
    (forward or back), ``q`` to stop."""
    path = Path(args.replay)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise Refused(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = export.load(raw)
    except export.ExportError as exc:
        raise Refused(f"{path} cannot be replayed: {exc}") from None
    lang = checked_language(args.language)
    info = engines.get(data["game"])
    module = info.load()
    names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(data["players"])]
    renderer = None if args.no_images else info.load_renderer()
    folder = (
        Folder(args.out, f"{info.name}-game{data.get('number', 0)}", int(data.get("seed") or 0))
        if renderer is not None
        else None
    )
    total = len(data["moves"])
    print(
        lang.ngettext(
            "{game}, game #{number}: {players}; {n} move",
            "{game}, game #{number}: {players}; {n} moves",
            total,
            game=info.title,
            number=data.get("number"),
            players=", ".join(names),
        ),
        file=out,
    )

    def who(seat: int) -> str:
        return lang.gettext("the table") if seat == TABLE else names[seat]

    def board(step: export.Step, events: list[str]) -> None:
        if renderer is None or folder is None:
            return
        png = renderer.render(
            module.view_for(step.state, None),
            names=names,
            last_action=events[0] if events else None,
            language=args.language,
        )
        print(
            "  " + lang.gettext("board: {path}", path=folder.write(f"move-{step.number:04d}.png", png)),
            file=out,
        )

    turn = None
    step = None
    target: int | None = None  # going to this move: the moves before it are replayed unshown
    steps = export.replay(data)
    try:
        while True:
            try:
                step = next(steps)
            except StopIteration:
                break
            if target is not None and step.number < target:
                continue
            jumped, target = target is not None, None
            # every line of the replayed move in full (the seed is in the file), except for a move
            # kept secret for good: only what a spectator reads of it (export.replay gives no more)
            events = [
                name_seats(in_words(e.text if e.said is None else e.said, lang) or "", names)
                for e in step.events
            ]
            shown = lang.gettext("a move kept secret ({mask})", mask=step.move) if step.secret else step.move
            print(
                f"{step.number}. {who(step.seat)}: {shown}" + (f" ({'; '.join(events)})" if events else ""),
                file=out,
            )
            now = module.turn_number(step.state)
            if now != turn or args.step or jumped:
                turn = now
                board(step, events)
            if not args.step or step.number == total:
                continue
            while True:
                answer = ask(
                    lang.gettext(
                        "Enter: the next move; a number: go to that move (1 to {total}); q: stop>",
                        total=total,
                    )
                    + " "
                )
                if answer is None or answer.strip().lower() in ("q", command_word(lang, "quit"), "quit"):
                    print(
                        lang.gettext("replay stopped at move {n} of {total}", n=step.number, total=total),
                        file=out,
                    )
                    return 0
                answer = answer.strip()
                if not answer:
                    break
                if answer.isdigit() and 1 <= int(answer) <= total:
                    target = int(answer)
                    if target <= step.number:  # back: replay from the start, unshown up to there
                        steps = export.replay(data)
                    break
                print(
                    "  "
                    + lang.gettext(
                        "there is no move {answer}; the moves are 1 to {total}", answer=answer, total=total
                    ),
                    file=out,
                )
    except export.ExportError as exc:
        print(f"python -m bot.local: {exc}", file=err)
        return 1
    if renderer is not None and folder is not None and step is not None:
        png = renderer.render(module.view_for(step.state, None), names=names, language=args.language)
        print("  " + lang.gettext("final board: {path}", path=folder.write("final.png", png)), file=out)
    outcome = export.final_outcome(data)
    if outcome is not None:
        print_outcome(outcome, names, out, lang)
    print(
        lang.ngettext(
            "The replay agrees with the export, move by move ({n} move).",
            "The replay agrees with the export, move by move ({n} moves).",
            total,
        ),
        file=out,
    )
    secret = sum(
        1 for m in data["moves"] if isinstance(m, dict) and m.get("move") is None and m.get("secret")
    )
    if secret:
        print(
            lang.ngettext(
                "{n} move was kept secret for good by its player, so it is not in the file: the replay "
                "checked that a legal move of that kind leads to the same board for everyone, not which "
                "move it was.",
                "{n} moves were kept secret for good by their players, so they are not in the file: the "
                "replay checked that a legal move of that kind leads to the same board for everyone, not "
                "which move it was.",
                secret,
            ),
            file=out,
        )
    return 0


def play(
    args: argparse.Namespace,
    ask: Prompter,
    out: TextIO,
    err: TextIO,
    *,
    thinking_after: float = THINKING_AFTER,
    clock: Callable[[], str] = now_text,
) -> int:
    lang = checked_language(args.language)
    info = engines.get(game_name(args.game))
    module = info.load()
    players = args.players if args.players is not None else max(info.min_players, min(2, info.max_players))
    if not info.min_players <= players <= info.max_players:
        raise Refused(
            f"--players must be from {info.min_players} to {info.max_players} for {info.title}, not {players}"
        )
    if not 0 <= args.computer <= players:
        raise Refused(f"--computer must be from 0 to {players} (the number of seats), not {args.computer}")
    if args.computer_seconds is not None and not 0.01 <= args.computer_seconds <= 60:
        raise Refused(f"--computer-seconds must be from 0.01 to 60, not {args.computer_seconds}")
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise Refused(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    seed = args.seed if args.seed is not None else random_seed()
    try:
        config = config_from_options(module.Config, players, options)
        state = module.new_game(config, players, seed)
    except SetupError as exc:
        raise Refused(
            lang.gettext("cannot set up {game}: {why}", game=info.title, why=exc.said.in_words(lang))
        ) from None
    renderer = None if args.no_images else info.load_renderer()
    folder = Folder(args.out, info.name, seed) if renderer is not None or not args.no_export else None
    computers = set(range(players - args.computer, players))
    names = [
        lang.gettext("P{n} (cpu, {level})", n=i + 1, level=args.computer_level)
        if i in computers
        else f"P{i + 1}"
        for i in range(players)
    ]
    # The game as the Discord table keeps it, for its export: the same build, the same privacy.
    started = clock()
    session = Session(
        SessionRow(
            id=0,
            game=info.name,
            guild_id=None,
            channel_id=0,
            host_id=0,
            status="active",
            options=options_of(config),
            max_players=players,
            seed=seed,
            state=None,
            version=0,
            lobby_message_id=None,
            outcome=None,
            end_reason=None,
            created_at=started,
            updated_at=started,
            finished_at=None,
        ),
        [
            Seat(i, i, None, names[i], i in computers, False, args.computer_level if i in computers else None)
            for i in range(players)
        ],
        info,
        state,
    )
    rows: list[MoveRow] = []
    records: list[MoveRecord] = []
    turn = 0
    last_action = None  # the last move's first public line, for the board's header

    def write(label: str, seat: int | None = None) -> None:
        if folder is None or renderer is None:
            return
        png = renderer.render(
            module.view_for(state, seat), names=names, last_action=last_action, language=args.language
        )
        path = folder.write(f"{label}.png" if seat is None else f"{label}-p{seat + 1}.png", png)
        print("  " + lang.gettext("board: {path}", path=path), file=out)

    print(
        lang.ngettext(
            "{game}: {n} player, seed {seed}, options {options}",
            "{game}: {n} players, seed {seed}, options {options}",
            players,
            game=info.title,
            seed=seed,
            options="; ".join(option_words(session, lang)) or lang.gettext("standard"),
        ),
        file=out,
    )
    write(f"turn-{turn:04d}")
    huts = renderer is not None and hasattr(renderer, "render_huts")
    hinted = False
    moves_made = 0
    paced: set[int] = set()
    acting = (frozenset(module.to_move(state)), module.turn_number(state))
    people_moves = 0
    while module.outcome(state) is None and moves_made < args.max_moves:
        due = sorted(module.to_move(state))
        if not due:
            print(lang.gettext("nobody can move; the game is stuck"), file=err)
            return 1
        seat = pace.next_computer(module, state, computers, paced)
        if seat is not None:
            legal = list(module.legal_moves(state, seat))
            move = with_notice(
                functools.partial(
                    module.computer_move,
                    module.view_for(state, seat),
                    legal,
                    rng_for(seed, "cpu", moves_made),
                    args.computer_level,
                    args.computer_seconds,
                ),
                thinking_after,
                functools.partial(
                    print,
                    "  " + lang.gettext("{player} is thinking...", player=names[seat]),
                    file=out,
                    flush=True,
                ),
            )
        else:
            people = [s for s in due if s not in computers]
            seat = people[people_moves % len(people)]
            summary = in_words(module.summary(module.view_for(state, seat)), lang)
            if summary:
                print(textwrap.indent(summary, "  "), file=out)
            if not hinted:
                print("  " + commands_hint(lang, huts), file=out)
                hinted = True
            line = ask(lang.gettext("{player} to play>", player=names[seat]) + " ")
            if line is None:
                print("\n" + lang.gettext("end of input; stopping"), file=out)
                return 0
            text = line.strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = command_of(word, lang)
            if command == "quit":
                return 0
            if command == "moves":
                print(
                    moves_text(
                        module, state, seat, list(module.legal_moves(state, seat)), rest.strip(), lang
                    ),
                    file=out,
                )
                continue
            if command == "view":
                write(f"turn-{turn:04d}", seat)
                continue
            if command == "describe":
                said_lines = lines_of(sections_for(module, state, seat), lang, names)
                print("\n".join(textwrap.indent(plain(x), "  ") for x in said_lines), file=out)
                continue
            if command == "huts":
                chart = getattr(renderer, "render_huts", None) if renderer is not None else None
                if chart is None or folder is None:
                    print(
                        "  " + lang.gettext("huts: the hut chart is for Nowa Gwinea (and needs images on)"),
                        file=out,
                    )
                else:
                    chart_path = folder.write("huts.png", chart(args.language))
                    print("  " + lang.gettext("hut chart: {path}", path=chart_path), file=out)
                continue
            if command == "help":
                rules = getattr(module, "RULES_HELP", None)
                print(plain(lang.gettext(rules) if rules else lang.gettext("no help written")), file=out)
                continue
            try:
                move = module.parse_move(text)
            except MoveError as exc:
                print(f"  {exc.said.in_words(lang)}", file=out)
                print("  " + commands_hint(lang, huts), file=out)
                continue
        mark = module.move_privacy(state, seat, move)
        try:
            state, events = module.apply_move(state, seat, move)
        except MoveError as exc:
            print(f"  {exc.said.in_words(lang)}", file=out)
            if seat in computers:
                print(f"the computer's move {move} was refused: {exc}", file=err)  # a fault, for developers
                return 1
            continue
        moves_made += 1
        at = clock()
        rows.append(
            MoveRow(
                moves_made,
                seat,
                str(move),
                seat in computers,
                at,
                [e.to_dict() for e in events],
                mark.to_dict(),
            )
        )
        records.append(MoveRecord(seat, str(move), seat in computers, tuple(events), mark, moves_made))
        if seat not in computers:
            people_moves += 1
            paced = set()  # each computer may move once more: one move per move a person makes
        # A computer's secret move (a hut, a kept order) shows only as what everyone may see.
        reader = None if seat in computers else seat
        lines = [name_seats(t, names) for e in events if (t := e.words_for(reader, lang))]
        public = [t for e in events if (t := e.words_for(None, lang))]
        last_action = name_seats(public[0], names) if public else last_action
        if reader is not None or module.readable(state, mark, None):
            print(f"{names[seat]}: {move}", file=out)
        elif not lines:
            print(f"{names[seat]}: {mark.mask}", file=out)
        for line in lines:
            print("  " + line, file=out)
        # A new board when those to move change, or a new turn begins with the same player (as
        # Guanga's first turn after everyone has kept an order).
        now = (frozenset(module.to_move(state)), module.turn_number(state))
        if now != acting or module.outcome(state) is not None:
            turn += 1
            write(f"turn-{turn:04d}")
            acting = now
    result = module.outcome(state)
    if result is None:
        print(lang.ngettext("stopped after {n} move", "stopped after {n} moves", moves_made), file=out)
        return 0
    print_outcome(result, names, out, lang)
    if folder is not None and not args.no_export:
        ended = clock()
        session.state = state
        session.row = dataclasses.replace(
            session.row,
            status="finished",
            version=moves_made,
            outcome=result.to_dict(),
            end_reason=result.reason,
            updated_at=ended,
            finished_at=ended,
        )
        data = export.build(session, rows, records)
        path = folder.write(f"{info.name}-seed{seed}.json", export.dump(data))
        print(lang.gettext("The game's export (replay it with --replay): {path}", path=path), file=out)
    return 0


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
        print("  " + t.gettext("tiebreak: {tiebreak}", tiebreak=tiebreak), file=out)


if __name__ == "__main__":
    sys.exit(main())
