"""Play any registered game in the terminal, hot-seat and against computer players.

    python -m bot.local guacamole --players 3 --computer 2 --computer-level strong --seed 7
    python -m bot.local --replay guacamole-game12.json

The board is written as a PNG after every turn into a folder of its own,
``<out>/<game>-seed<seed>/`` (``./pukllay-local`` by default), and the path is
printed.  Type a move in the game's notation at the prompt; ``moves`` lists
the legal ones by kind, in words (``moves r3`` those starting with ``r3``), ``view``
writes your private picture, ``huts`` (Nowa Gwinea) the hut chart, ``help``
shows the rules, ``quit`` stops.  ``--language es`` writes the table's words, what the
engines say (where their sentences are kept for translation; English otherwise) and the board
images in Spanish.  Your own hand, order or village is shown as
text at each prompt.  Seats are numbered from 1; computer players take the
last seats, and in simultaneous rounds they keep your pace (one move per move
you make), as at the Discord table.  With ``--replay FILE`` it replays a game
exported by ``/game export`` instead (see :mod:`bot.export`), checking every
move against the file and writing a board per turn.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from pathlib import Path
from typing import TextIO

import engines
from bot import export, pace
from bot.choices import group_moves
from engines.core import (
    DEFAULT_LEVEL,
    LEVELS,
    TABLE,
    MoveError,
    Outcome,
    SetupError,
    config_from_options,
    in_words,
    name_seats,
    rng_for,
    say,
)
from languages import ENGLISH, Language, language


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
        help="replay a game exported with /game export, move by move, writing the boards",
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
    parser.add_argument("--seed", type=int, default=1, help="the seed for shuffling and generation")
    parser.add_argument(
        "--out", default="pukllay-local", help="folder for the board images (one subfolder a game)"
    )
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--no-images", action="store_true", help="do not write board images")
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


def moves_text(module, state, seat: int, legal: list, prefix: str = "", t: Language = ENGLISH) -> str:
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
    """The images of one game: ``<out>/<game>-seed<seed>/``, emptied of older images at start."""

    def __init__(self, out: str, game: str, seed: int):
        self.path = Path(out) / f"{game}-seed{seed}"
        self.path.mkdir(parents=True, exist_ok=True)
        for old in self.path.glob("*.png"):
            old.unlink()

    def write(self, name: str, png: bytes) -> Path:
        target = self.path / name
        target.write_bytes(png)
        return target


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    try:
        args = parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error, already printed by argparse
        return int(exc.code or 0)
    try:
        if args.replay is not None:
            if args.game is not None:
                raise Refused("--replay takes the game from the file; leave out the game's name")
            return replay(args, out, err)
        if args.game is None:
            raise Refused("name a game to play (such as guacamole), or give --replay FILE")
        return play(args, stdin, out, err)
    except Refused as exc:
        print(f"python -m bot.local: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        print("\nstopped", file=out)
        return 130


def replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Replay an exported game: each move with its lines, a board per turn, and the result checked."""
    path = Path(args.replay)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise Refused(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = export.load(raw)
    except export.ExportError as exc:
        raise Refused(f"{path} cannot be replayed: {exc}") from None
    lang = language(args.language)
    info = engines.get(data["game"])
    module = info.load()
    names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(data["players"])]
    renderer = None if args.no_images else info.load_renderer()
    folder = Folder(args.out, f"{info.name}-game{data.get('number', 0)}", int(data.get("seed") or 0))
    print(
        lang.ngettext(
            "{game}, game #{number}: {players}; {n} move",
            "{game}, game #{number}: {players}; {n} moves",
            len(data["moves"]),
            game=info.title,
            number=data.get("number"),
            players=", ".join(names),
        ),
        file=out,
    )

    def who(seat: int) -> str:
        return lang.gettext("the table") if seat == TABLE else names[seat]

    turn = None
    step = None
    secret = 0
    try:
        for step in export.replay(data):
            # every line of the replayed move in full (the seed is in the file), except for a move
            # kept secret for good: only what a spectator reads of it (export.replay gives no more)
            events = [
                name_seats(in_words(e.text if e.said is None else e.said, lang) or "", names)
                for e in step.events
            ]
            shown = lang.gettext("a move kept secret ({mask})", mask=step.move) if step.secret else step.move
            secret += step.secret
            print(
                f"{step.number}. {who(step.seat)}: {shown}" + (f" ({'; '.join(events)})" if events else ""),
                file=out,
            )
            now = module.turn_number(step.state)
            if renderer is not None and now != turn:
                turn = now
                png = renderer.render(
                    module.view_for(step.state, None),
                    names=names,
                    last_action=events[0] if events else None,
                    language=args.language,
                )
                print(
                    "  "
                    + lang.gettext("board: {path}", path=folder.write(f"move-{step.number:04d}.png", png)),
                    file=out,
                )
    except export.ExportError as exc:
        print(f"python -m bot.local: {exc}", file=err)
        return 1
    if renderer is not None and step is not None:
        png = renderer.render(module.view_for(step.state, None), names=names, language=args.language)
        print("  " + lang.gettext("final board: {path}", path=folder.write("final.png", png)), file=out)
    outcome = export.final_outcome(data)
    if outcome is not None:
        print_outcome(outcome, names, out, lang)
    print(
        lang.ngettext(
            "The replay agrees with the export, move by move ({n} move).",
            "The replay agrees with the export, move by move ({n} moves).",
            len(data["moves"]),
        ),
        file=out,
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


def play(args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    lang = language(args.language)
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
    try:
        config = config_from_options(module.Config, players, options)
        state = module.new_game(config, players, args.seed)
    except SetupError as exc:
        raise Refused(
            lang.gettext("cannot set up {game}: {why}", game=info.title, why=exc.said.in_words(lang))
        ) from None
    renderer = None if args.no_images else info.load_renderer()
    folder = Folder(args.out, info.name, args.seed) if renderer is not None else None
    computers = set(range(players - args.computer, players))
    names = [
        lang.gettext("P{n} (cpu, {level})", n=i + 1, level=args.computer_level)
        if i in computers
        else f"P{i + 1}"
        for i in range(players)
    ]
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
            seed=args.seed,
            options=options or lang.gettext("standard"),
        ),
        file=out,
    )
    write(f"turn-{turn:04d}")
    moves_made = 0
    paced: set[int] = set()
    acting = frozenset(module.to_move(state))
    people_moves = 0
    while module.outcome(state) is None and moves_made < args.max_moves:
        due = sorted(module.to_move(state))
        if not due:
            print(lang.gettext("nobody can move; the game is stuck"), file=err)
            return 1
        seat = pace.next_computer(module, state, computers, paced)
        if seat is not None:
            legal = list(module.legal_moves(state, seat))
            move = module.computer_move(
                module.view_for(state, seat),
                legal,
                rng_for(args.seed, "cpu", moves_made),
                args.computer_level,
                args.computer_seconds,
            )
        else:
            people = [s for s in due if s not in computers]
            seat = people[people_moves % len(people)]
            summary = in_words(module.summary(module.view_for(state, seat)), lang)
            if summary:
                print(textwrap.indent(summary, "  "), file=out)
            print(lang.gettext("{player} to play>", player=names[seat]) + " ", end="", file=out, flush=True)
            line = stdin.readline()
            if not line:
                print("\n" + lang.gettext("end of input; stopping"), file=out)
                return 0
            text = line.strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit"):
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
        now = frozenset(module.to_move(state))
        if now != acting or module.outcome(state) is not None:
            turn += 1
            write(f"turn-{turn:04d}")
            acting = now
    result = module.outcome(state)
    if result is None:
        print(lang.ngettext("stopped after {n} move", "stopped after {n} moves", moves_made), file=out)
        return 0
    print_outcome(result, names, out, lang)
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
