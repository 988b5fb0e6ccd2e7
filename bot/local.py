"""Play any registered game in the terminal, hot-seat and against computer players.

    python -m bot.local guacamole --players 3 --computer 2 --computer-level strong --seed 7

Each turn's board is written as a PNG into the output folder (``./pukllay-local``
by default) and the path is printed.  Type a move in the game's notation at the
prompt; ``moves`` lists the legal ones, ``view`` writes your private picture,
``help`` shows the rules, ``quit`` stops.  Seats are numbered from 1; computer
players take the last seats.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

import engines
from engines.core import (
    DEFAULT_LEVEL,
    LEVELS,
    MoveError,
    SetupError,
    config_from_options,
    name_seats,
    rng_for,
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot.local", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="the game's name: " + ", ".join(sorted(engines.GAMES)))
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
    parser.add_argument("--seed", type=int, default=1, help="the seed for shuffling and generation")
    parser.add_argument("--out", default="pukllay-local", help="folder for the board images")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--no-images", action="store_true", help="do not write board images")
    parser.add_argument("--max-moves", type=int, default=100000, help="stop after this many moves")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    args = parse_args(argv)
    try:
        info = engines.get(args.game)
    except KeyError as exc:
        print(exc.args[0], file=out)
        return 2
    module = info.load()
    renderer = None if args.no_images else info.load_renderer()
    players = args.players or max(info.min_players, 2 if info.max_players >= 2 else 1)
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"--option takes NAME=VALUE, not {item!r}", file=out)
            return 2
        options[name.strip()] = value.strip()
    if not 0 <= args.computer <= players:
        print(f"--computer must be between 0 and {players}", file=out)
        return 2
    try:
        config = config_from_options(module.Config, players, options)
        state = module.new_game(config, players, args.seed)
    except SetupError as exc:
        print(f"cannot set up {info.title}: {exc}", file=out)
        return 2
    computers = set(range(players - args.computer, players))
    names = [
        f"P{i + 1}" + (f" (cpu, {args.computer_level})" if i in computers else "") for i in range(players)
    ]
    folder = Path(args.out)
    if renderer is not None:
        folder.mkdir(parents=True, exist_ok=True)
    turn = 0

    def show(label: str, seat: int | None = None) -> None:
        if renderer is None:
            return
        png = renderer.render(module.view_for(state, seat), names=names)
        path = folder / (f"{label}.png" if seat is None else f"{label}-p{seat + 1}.png")
        path.write_bytes(png)
        print(f"  board: {path}", file=out)

    print(f"{info.title}: {players} players, seed {args.seed}, options {options or 'standard'}", file=out)
    show(f"turn-{turn:04d}")
    moves_made = 0
    while module.outcome(state) is None and moves_made < args.max_moves:
        due = sorted(module.to_move(state))
        if not due:
            print("nobody can move; the game is stuck", file=out)
            return 1
        seat = due[0]
        if seat in computers:
            legal = list(module.legal_moves(state, seat))
            move = module.computer_move(
                module.view_for(state, seat),
                legal,
                rng_for(args.seed, "cpu", moves_made),
                args.computer_level,
            )
        else:
            print(f"{names[seat]} to play> ", end="", file=out, flush=True)
            line = stdin.readline()
            if not line:
                print("\nend of input; stopping", file=out)
                return 0
            text = line.strip()
            if not text:
                continue
            if text in ("quit", "exit"):
                return 0
            if text == "moves":
                legal = [str(m) for m in module.legal_moves(state, seat)]
                print("  " + (", ".join(legal[:200]) + (" ..." if len(legal) > 200 else "")), file=out)
                continue
            if text == "view":
                show(f"turn-{turn:04d}", seat)
                continue
            if text == "help":
                print(getattr(module, "RULES_HELP", "no help written"), file=out)
                continue
            try:
                move = module.parse_move(text)
            except MoveError as exc:
                print(f"  {exc}", file=out)
                continue
        try:
            state, events = module.apply_move(state, seat, move)
        except MoveError as exc:
            print(f"  {exc}", file=out)
            if seat in computers:
                return 1
            continue
        moves_made += 1
        print(f"{names[seat]}: {move}", file=out)
        for event in events:
            text = event.text_for(None if seat in computers else seat)
            if text:
                print("  " + name_seats(text, names), file=out)
        turn += 1
        show(f"turn-{turn:04d}")
    result = module.outcome(state)
    if result is None:
        print(f"stopped after {moves_made} moves", file=out)
        return 0
    print(f"Game over: {name_seats(result.reason, names)}", file=out)
    place = 1
    for group in result.ranking:
        for s in group:
            print(f"  {place}. {names[s]}: {result.scores[s]}", file=out)
        place += len(group)
    if result.tiebreak:
        print(f"  tiebreak: {result.tiebreak}", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
