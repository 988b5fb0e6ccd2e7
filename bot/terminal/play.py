"""The terminal's game: people at the prompt, computers in the other seats, a board per turn,
and the export when the game ends.  What each move shows, and to whom, is asked of
:func:`bot.public.seen` (the mover reads their own move; a computer's move is shown as
everyone may read it), exactly as the Discord table asks it.

Imports :mod:`bot.export`, :mod:`bot.public`, :mod:`bot.texts`, :mod:`bot.describe`,
:mod:`bot.sessions` (the session a game's export is built from), :mod:`bot.time.pace`,
:mod:`bot.terminal.prompt`, :mod:`engines` and :mod:`languages`; no Discord.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import textwrap
from collections.abc import Callable
from typing import TextIO

import engines
from bot import choices, export, public
from bot.describe import lines_of, options_lines, sections_for
from bot.optionline import board_options
from bot.records import MoveRecord
from bot.sessions import Seat, Session
from bot.storage import MoveRow, SessionRow
from bot.terminal import prompt
from bot.texts import option_words
from bot.time import pace
from engines.core import (
    Engine,
    MoveError,
    SetupError,
    in_words,
    name_seats,
    new_config_from_options,
    options_of,
    rng_for,
)
from languages import Language, option_key


def play(
    args: argparse.Namespace,
    ask: prompt.Prompter,
    out: TextIO,
    err: TextIO,
    *,
    thinking_after: float = prompt.THINKING_AFTER,
    clock: Callable[[], str] = prompt.now_text,
) -> int:
    lang = prompt.checked_language(args.language)
    info = engines.get(prompt.game_name(args.game))
    module = info.load()
    players = args.players if args.players is not None else max(info.min_players, min(2, info.max_players))
    if not info.min_players <= players <= info.max_players:
        if info.min_players == info.max_players:
            why = lang.gettext(
                "--players must be {n} for {game}, not {players}",
                n=info.min_players,
                game=info.title,
                players=players,
            )
        else:
            why = lang.gettext(
                "--players must be from {low} to {high} for {game}, not {players}",
                low=info.min_players,
                high=info.max_players,
                game=info.title,
                players=players,
            )
        raise prompt.Refused(why)
    if not 0 <= args.computer <= players:
        raise prompt.Refused(
            f"--computer must be from 0 to {players} (the number of seats), not {args.computer}"
        )
    if args.computer_seconds is not None and not 0.01 <= args.computer_seconds <= 60:
        raise prompt.Refused(f"--computer-seconds must be from 0.01 to 60, not {args.computer_seconds}")
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise prompt.Refused(f"--option takes NAME=VALUE, not {item!r}")
        options[option_key(name.strip())] = value.strip()  # English, or as the refusals name it
    seed = args.seed if args.seed is not None else prompt.random_seed()
    try:
        config = new_config_from_options(module.Config, players, options)  # as a new table takes them
        state = module.new_game(config, players, seed)
    except SetupError as exc:
        raise prompt.Refused(
            lang.gettext(
                "cannot set up {game}: {why}", game=info.title, why=prompt.plain(exc.said.in_words(lang))
            )
        ) from None
    renderer = None if args.no_images else info.load_renderer()
    folder = prompt.Folder(args.out, info.name, seed) if renderer is not None or not args.no_export else None
    computers = set(range(players - args.computer, players))
    names = [
        lang.gettext("P{n} (cpu, {level})", n=i + 1, level=lang.gettext(args.computer_level))
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
            module.view_for(state, seat),
            names=names,
            last_action=last_action,
            language=args.language,
            options=board_options(info.name, session.row.options, lang),
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
            move = prompt.with_notice(
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
                print(textwrap.indent(prompt.plain(summary), "  "), file=out)
            if not hinted:
                print("  " + prompt.commands_hint(lang, huts), file=out)
                hinted = True
            only = prompt.only_move(module, state, seat)
            if only is None:
                asked = lang.gettext("{player} to play>", player=names[seat])
            else:  # Enter alone plays it, as the hint says
                asked = lang.gettext("{player} to play (Enter: {move})>", player=names[seat], move=str(only))
            line = ask(asked + " ")
            if line is None:
                print("\n" + lang.gettext("end of input; stopping"), file=out)
                return 0
            text = line.strip()
            if not text and only is None:  # several moves: which they are, and that one is typed
                print("  " + lang.gettext("Several moves are legal: type the one you choose."), file=out)
                print(
                    prompt.moves_text(module, state, seat, choices.offered(module, state, seat), "", lang),
                    file=out,
                )
                continue
            word, _, rest = text.partition(" ")
            command = prompt.command_of(word, lang)
            if command == "quit":
                return 0
            if command == "moves":
                print(
                    prompt.moves_text(
                        module, state, seat, choices.offered(module, state, seat), rest.strip(), lang
                    ),
                    file=out,
                )
                continue
            if command == "view":
                write(f"turn-{turn:04d}", seat)
                continue
            if command == "describe":
                said_lines = [
                    *options_lines(info.name, session.row.options, lang),
                    *lines_of(sections_for(module, state, seat), lang, names, last_action),
                ]
                print("\n".join(textwrap.indent(prompt.plain(x), "  ") for x in said_lines), file=out)
                continue
            if command == "huts":
                chart = getattr(renderer, "render_huts", None) if renderer is not None else None
                if not hasattr(renderer or info.load_renderer(), "render_huts"):
                    print("  " + lang.gettext("huts: only Nowa Gwinea has a hut chart"), file=out)
                elif chart is None or folder is None:  # the game has one: the images are off
                    print(
                        "  "
                        + lang.gettext("huts: the hut chart is a picture; start without --no-images for it"),
                        file=out,
                    )
                else:
                    chart_path = folder.write("huts.png", chart(args.language))
                    print("  " + lang.gettext("hut chart: {path}", path=chart_path), file=out)
                continue
            if command == "help":
                rules = module.RULES_HELP
                print(
                    prompt.plain(lang.gettext(rules) if rules else lang.gettext("no help written")), file=out
                )
                continue
            try:  # an empty line here: the one legal move
                move = module.parse_move(text) if text else only
            except MoveError as exc:
                print(f"  {prompt.plain(exc.said.in_words(lang))}", file=out)
                print("  " + prompt.commands_hint(lang, huts), file=out)
                continue
        mark = module.move_privacy(state, seat, move)
        try:
            state, events = module.apply_move(state, seat, move)
        except MoveError as exc:  # the engine's words, with the players' names put in
            print(f"  {prompt.plain(name_seats(exc.said.in_words(lang), names))}", file=out)
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
        record = MoveRecord(seat, str(move), seat in computers, tuple(events), mark, moves_made)
        records.append(record)
        if seat not in computers:
            people_moves += 1
            paced = set()  # each computer may move once more: one move per move a person makes
        # The mover reads their own move; a computer's (a hut, a kept order) shows as everyone may read it.
        for line in move_lines(module, state, record, None if seat in computers else seat, names, lang):
            print(line, file=out)
        everyone = public.seen(module, state, record, None, lang).lines
        last_action = name_seats(everyone[0], names) if everyone else last_action
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
    prompt.print_outcome(result, names, out, lang)
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


def move_lines(
    module: Engine, state: object, record: MoveRecord, reader: int | None, names: list[str], t: Language
) -> list[str]:
    """What the terminal prints of ``record`` for ``reader``, as :func:`bot.public.seen` allows:
    the mover and the notation when the reader may read it, else the mask when no event line
    says anything, then the event lines that reader may read."""
    shown = public.seen(module, state, record, reader, t)
    head = shown.notation if shown.notation is not None else None if shown.lines else shown.mask
    return ([f"{names[record.seat]}: {prompt.plain(head)}"] if head is not None else []) + [
        "  " + prompt.plain(name_seats(line, names)) for line in shown.lines
    ]
