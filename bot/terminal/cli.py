"""The terminal table's command line: ``python -m bot.terminal GAME [options]`` plays a game,
``--replay FILE [--step]`` replays an export; every problem with the command line is said in
one line on standard error.

Imports :mod:`bot.terminal.play`, :mod:`bot.terminal.replay`, :mod:`bot.terminal.prompt` and
:mod:`engines`; no Discord.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TextIO

import engines
from bot.terminal.play import play
from bot.terminal.prompt import THINKING_AFTER, Prompter, Refused, line_editing, now_text
from bot.terminal.replay import replay
from engines.core import DEFAULT_LEVEL, LEVELS, plural

PROG = "python -m bot.terminal"


def games_help() -> str:
    """Each game's player range and options, for ``--help``."""
    lines = ["games and their options (give them as --option NAME=VALUE):"]
    for name, info in sorted(engines.available().items()):
        seats = (
            f"{info.min_players}-{info.max_players} players"
            if info.min_players != info.max_players
            else plural(info.min_players, "player")
        )
        lines.append(f"  {name}: {info.title}, {seats}")
        for option in info.options():
            allowed = f" ({' / '.join(str(c) for c in option.choices)})" if option.choices else ""
            lines.append(f"      {option.name}={option.default}{allowed}: {option.help}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play any registered game in the terminal, hot-seat and against computer players.",
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
        print(f"{PROG}: {exc}", file=err)
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
        print(f"{PROG}: the output was closed before the end (piped into head?)", file=err)
        return 1
