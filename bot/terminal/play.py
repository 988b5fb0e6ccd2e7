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
    """Play the game ``args`` name at the prompt (``ask``), printing to ``out`` (``err``: what went
    wrong); the exit status.  :class:`prompt.Refused` for arguments that set up no game."""
    return Game(args, out, clock).run(ask, err, thinking_after)


AGAIN, STOP = object(), object()
"""What a person's line gives when it plays no move: ask again (a command, a move refused), or
stop (``quit``, the end of input)."""


class Game:
    """One game at the prompt: its seats and names, the state, the boards written and the moves
    kept for the export."""

    def __init__(self, args: argparse.Namespace, out: TextIO, clock: Callable[[], str]):
        self.args, self.out, self.clock = args, out, clock
        self.lang = lang = prompt.checked_language(args.language)
        self.info = info = engines.get(prompt.game_name(args.game))
        self.module = module = info.load()
        players = (
            args.players if args.players is not None else max(info.min_players, min(2, info.max_players))
        )
        checked(args, players, info, lang)
        self.seed = seed = args.seed if args.seed is not None else prompt.random_seed()
        try:  # as a new table takes them
            config = new_config_from_options(module.Config, players, options_given(args, lang))
            self.state = module.new_game(config, players, seed)
        except SetupError as exc:
            raise prompt.Refused(
                lang.gettext(
                    "cannot set up {game}: {why}", game=info.title, why=prompt.plain(exc.said.in_words(lang))
                )
            ) from None
        self.renderer = None if args.no_images else info.load_renderer()
        wanted = self.renderer is not None or not args.no_export
        self.folder = prompt.Folder(args.out, info.name, seed) if wanted else None
        self.computers = computers = set(range(players - args.computer, players))
        self.names = names = [
            lang.gettext("P{n} (cpu, {level})", n=i + 1, level=lang.gettext(args.computer_level))
            if i in computers
            else f"P{i + 1}"
            for i in range(players)
        ]
        # The game as the Discord table keeps it, for its export: the same build, the same privacy.
        started = clock()
        self.session = Session(
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
                Seat(
                    i,
                    i,
                    None,
                    names[i],
                    i in computers,
                    False,
                    args.computer_level if i in computers else None,
                )
                for i in range(players)
            ],
            info,
            self.state,
        )
        self.rows: list[MoveRow] = []
        self.records: list[MoveRecord] = []
        self.turn = 0
        self.last_action: str | None = None  # the last move's first public line, for the board's header
        self.huts = self.renderer is not None and hasattr(self.renderer, "render_huts")
        self.hinted = False
        self.moves_made = 0
        self.people_moves = 0
        self.paced: set[int] = set()  # the computers that moved since a person last did

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def write(self, label: str, seat: int | None = None) -> None:
        """The board as ``seat`` sees it (None: everyone), written to the game's folder."""
        if self.folder is None or self.renderer is None:
            return
        png = self.renderer.render(
            self.module.view_for(self.state, seat),
            names=self.names,
            last_action=self.last_action,
            language=self.args.language,
            options=board_options(self.info.name, self.session.row.options, self.lang),
        )
        path = self.folder.write(f"{label}.png" if seat is None else f"{label}-p{seat + 1}.png", png)
        self.say("  " + self.lang.gettext("board: {path}", path=path))

    def run(self, ask: prompt.Prompter, err: TextIO, thinking_after: float) -> int:
        module, lang = self.module, self.lang
        self.say(
            lang.ngettext(
                "{game}: {n} player, seed {seed}, options {options}",
                "{game}: {n} players, seed {seed}, options {options}",
                len(self.names),
                game=self.info.title,
                seed=self.seed,
                options="; ".join(option_words(self.session, lang)) or lang.gettext("standard"),
            )
        )
        self.write(f"turn-{self.turn:04d}")
        acting = (frozenset(module.to_move(self.state)), module.turn_number(self.state))
        while module.outcome(self.state) is None and self.moves_made < self.args.max_moves:
            due = sorted(module.to_move(self.state))
            if not due:
                print(lang.gettext("nobody can move; the game is stuck"), file=err)
                return 1
            seat = pace.next_computer(module, self.state, self.computers, self.paced)
            if seat is not None:
                move = self.computer_move(seat, thinking_after)
            else:
                people = [s for s in due if s not in self.computers]
                seat = people[self.people_moves % len(people)]
                move = self.person_move(seat, ask)
                if move is STOP:
                    return 0
                if move is AGAIN:
                    continue
            refused = self.apply(seat, move)
            if refused is not None:
                if seat in self.computers:  # a fault, for developers
                    print(f"the computer's move {move} was refused: {refused}", file=err)
                    return 1
                continue
            # A new board when those to move change, or a new turn begins with the same player (as
            # Guanga's first turn after everyone has kept an order).
            now = (frozenset(module.to_move(self.state)), module.turn_number(self.state))
            if now != acting or module.outcome(self.state) is not None:
                self.turn += 1
                self.write(f"turn-{self.turn:04d}")
                acting = now
        self.finish()
        return 0

    def computer_move(self, seat: int, thinking_after: float) -> object:
        """The computer's move for ``seat``, saying it thinks when it takes a while."""
        module = self.module
        return prompt.with_notice(
            functools.partial(
                module.computer_move,
                module.view_for(self.state, seat),
                list(module.legal_moves(self.state, seat)),
                rng_for(self.seed, "cpu", self.moves_made),
                self.args.computer_level,
                self.args.computer_seconds,
            ),
            thinking_after,
            functools.partial(
                print,
                "  " + self.lang.gettext("{player} is thinking...", player=self.names[seat]),
                file=self.out,
                flush=True,
            ),
        )

    def person_move(self, seat: int, ask: prompt.Prompter) -> object:
        """The move the person in ``seat`` types, or :data:`AGAIN` or :data:`STOP`."""
        module, lang = self.module, self.lang
        summary = in_words(module.summary(module.view_for(self.state, seat)), lang)
        if summary:
            self.say(textwrap.indent(prompt.plain(summary), "  "))
        if not self.hinted:
            self.say("  " + prompt.commands_hint(lang, self.huts))
            self.hinted = True
        only = prompt.only_move(module, self.state, seat)
        if only is None:
            asked = lang.gettext("{player} to play>", player=self.names[seat])
        else:  # Enter alone plays it, as the hint says
            asked = lang.gettext("{player} to play (Enter: {move})>", player=self.names[seat], move=str(only))
        line = ask(asked + " ")
        if line is None:
            self.say("\n" + lang.gettext("end of input; stopping"))
            return STOP
        text = line.strip()
        if not text and only is None:  # several moves: which they are, and that one is typed
            self.say("  " + lang.gettext("Several moves are legal: type the one you choose."))
            self.say(
                prompt.moves_text(
                    module, self.state, seat, choices.offered(module, self.state, seat), "", lang, self.names
                )
            )
            return AGAIN
        word, _, rest = text.partition(" ")
        command = prompt.command_of(word, lang)
        if command == "quit":
            return STOP
        if command is not None and self.command(command, rest.strip(), seat):
            return AGAIN
        try:  # an empty line here: the one legal move
            return module.parse_move(text) if text else only
        except MoveError as exc:
            self.say(f"  {prompt.plain(exc.said.in_words(lang))}")
            self.say("  " + prompt.commands_hint(lang, self.huts))
            return AGAIN

    def command(self, command: str, rest: str, seat: int) -> bool:
        """Do the terminal's ``command`` (typed by the person in ``seat``, ``rest`` after it); False
        for a word that is no command here (it is read as a move)."""
        module, lang, state = self.module, self.lang, self.state
        if command == "moves":
            offered = choices.offered(module, state, seat)
            self.say(prompt.moves_text(module, state, seat, offered, rest, lang, self.names))
        elif command == "view":
            self.write(f"turn-{self.turn:04d}", seat)
        elif command == "describe":
            said_lines = [
                *options_lines(self.info.name, self.session.row.options, lang),
                *lines_of(sections_for(module, state, seat), lang, self.names, self.last_action),
            ]
            self.say("\n".join(textwrap.indent(prompt.plain(x), "  ") for x in said_lines))
        elif command == "huts":
            self.hut_chart()
        elif command == "help":
            rules = module.RULES_HELP
            self.say(prompt.plain(lang.gettext(rules) if rules else lang.gettext("no help written")))
        else:
            return False
        return True

    def hut_chart(self) -> None:
        """``huts``: Nowa Gwinea's hut chart written to the game's folder, or why not."""
        lang, renderer = self.lang, self.renderer
        chart = getattr(renderer, "render_huts", None) if renderer is not None else None
        if not hasattr(renderer or self.info.load_renderer(), "render_huts"):
            self.say("  " + lang.gettext("huts: only Nowa Gwinea has a hut chart"))
        elif chart is None or self.folder is None:  # the game has one: the images are off
            self.say(
                "  " + lang.gettext("huts: the hut chart is a picture; start without --no-images for it")
            )
        else:
            chart_path = self.folder.write("huts.png", chart(self.args.language))
            self.say("  " + lang.gettext("hut chart: {path}", path=chart_path))

    def apply(self, seat: int, move: object) -> MoveError | None:
        """Play ``move`` for ``seat``, keep it for the export and print it as its reader may read
        it; the engine's refusal (its words printed), or None."""
        module, lang, names = self.module, self.lang, self.names
        computer = seat in self.computers
        mark = module.move_privacy(self.state, seat, move)
        try:
            self.state, events = module.apply_move(self.state, seat, move)
        except MoveError as exc:  # the engine's words, with the players' names put in
            self.say(f"  {prompt.plain(name_seats(exc.said.in_words(lang), names))}")
            return exc
        self.moves_made += 1
        at = self.clock()
        self.rows.append(
            MoveRow(
                self.moves_made, seat, str(move), computer, at, [e.to_dict() for e in events], mark.to_dict()
            )
        )
        record = MoveRecord(seat, str(move), computer, tuple(events), mark, self.moves_made)
        self.records.append(record)
        if not computer:
            self.people_moves += 1
            self.paced = set()  # each computer may move once more: one move per move a person makes
        # The mover reads their own move; a computer's (a hut, a kept order) shows as everyone may read it.
        for line in move_lines(module, self.state, record, None if computer else seat, names, lang):
            self.say(line)
        everyone = public.seen(module, self.state, record, None, lang).lines
        self.last_action = name_seats(everyone[0], names) if everyone else self.last_action
        return None

    def finish(self) -> None:
        """The outcome printed, and the game's export written (unless ``--no-export``); or, for a
        game stopped by ``--max-moves``, how many moves were played."""
        lang = self.lang
        result = self.module.outcome(self.state)
        if result is None:
            self.say(lang.ngettext("stopped after {n} move", "stopped after {n} moves", self.moves_made))
            return
        prompt.print_outcome(result, self.names, self.out, lang)
        if self.folder is None or self.args.no_export:
            return
        ended = self.clock()
        self.session.state = self.state
        self.session.row = dataclasses.replace(
            self.session.row,
            status="finished",
            version=self.moves_made,
            outcome=result.to_dict(),
            end_reason=result.reason,
            updated_at=ended,
            finished_at=ended,
        )
        data = export.build(self.session, self.rows, self.records)
        path = self.folder.write(f"{self.info.name}-seed{self.seed}.json", export.dump(data))
        self.say(lang.gettext("The game's export (replay it with --replay): {path}", path=path))


def checked(args: argparse.Namespace, players: int, info: engines.GameInfo, lang: Language) -> None:
    """:class:`prompt.Refused` for a number of seats the game does not take, or computers or a
    computer's time out of their range."""
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
            lang.gettext(
                "--computer must be from 0 to {players} (the number of seats), not {computer}",
                players=players,
                computer=args.computer,
            )
        )
    if args.computer_seconds is not None and not 0.01 <= args.computer_seconds <= 60:
        raise prompt.Refused(
            lang.gettext(
                "--computer-seconds must be from 0.01 to 60, not {seconds}", seconds=args.computer_seconds
            )
        )


def options_given(args: argparse.Namespace, lang: Language) -> dict[str, str]:
    """The ``--option NAME=VALUE`` pairs, each name as the table keys it (English, or as the
    refusals name it); :class:`prompt.Refused` for one without ``=``."""
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise prompt.Refused(lang.gettext("--option takes NAME=VALUE, not {item}", item=repr(item)))
        options[option_key(name.strip())] = value.strip()
    return options


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
