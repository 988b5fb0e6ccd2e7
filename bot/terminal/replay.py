"""The terminal's replay of an exported game (``--replay FILE``): each move with its lines, a
board per turn, the result checked against the file; with ``--step`` it stops after each move.

Imports :mod:`bot.export`, :mod:`bot.terminal.prompt`, :mod:`engines` and :mod:`languages`;
no Discord.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import engines
from bot import export
from bot.optionline import board_options
from bot.terminal.prompt import (
    Folder,
    Prompter,
    Refused,
    checked_language,
    command_word,
    plain,
    print_outcome,
)
from bot.texts import abandon_words, game_options_text
from engines.core import TABLE, Event, Outcome, Said, in_words, name_seats
from languages import Language


def replay(args: argparse.Namespace, ask: Prompter, out: TextIO, err: TextIO) -> int:
    """Replay an exported game: each move with its lines, a board per turn, and the result checked.
    With ``--step`` it stops after each move: Enter for the next, a number to go to that move
    (forward or back), ``q`` to stop."""
    lang = checked_language(args.language)
    data, outcome = read(Path(args.replay), lang)
    return Replay(args, data, outcome, lang, out).run(ask, err)


def read(path: Path, lang: Language) -> tuple[export.Loaded, Outcome | None]:
    """The export in the file at ``path`` and the result it records; :class:`Refused` for a file
    that cannot be read, or is no export, or whose result is not one."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise Refused(
            lang.gettext("cannot read {path}: {why}", path=str(path), why=exc.strerror or str(exc))
        ) from None
    try:
        data = export.load(raw)
        return data, export.final_outcome(data)  # a result that is not one is refused before the replay
    except export.ExportError as exc:
        raise Refused(
            lang.gettext("{path} cannot be replayed: {why}", path=str(path), why=str(exc))
        ) from None


FORWARD, STOP = object(), object()
"""What a person answers after a move of a replay in steps, but a move's number: the next move,
or stop."""


class Replay:
    """The replay of one exported game at the prompt."""

    def __init__(
        self,
        args: argparse.Namespace,
        data: export.Loaded,
        outcome: Outcome | None,
        lang: Language,
        out: TextIO,
    ):
        self.args, self.data, self.outcome, self.lang, self.out = args, data, outcome, lang, out
        self.info = info = engines.get(data["game"])
        self.module = info.load()
        self.names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(data["players"])]
        self.renderer = None if args.no_images else info.load_renderer()
        self.folder = (
            Folder(args.out, f"{info.name}-game{data.get('number', 0)}", int(data.get("seed") or 0))
            if self.renderer is not None
            else None
        )
        self.total = len(data["moves"])
        self.older = export.earlier(data)  # checked by its moves and result, not state by state
        self.word: Callable[[Said], Said] | None = getattr(self.module, "worded", None)

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def run(self, ask: Prompter, err: TextIO) -> int:
        self.header()
        turn = None
        step = None
        target: int | None = None  # going to this move: the moves before it are replayed unshown
        steps = export.replay(self.data)
        try:
            while True:
                try:
                    step = next(steps)
                except StopIteration:
                    break
                if target is not None and step.number < target:
                    continue
                jumped, target = target is not None, None
                events = self.told(step)
                now = self.module.turn_number(step.state)
                if now != turn or self.args.step or jumped:
                    turn = now
                    self.board(step, events)
                if not self.args.step or step.number == self.total:
                    continue
                answer = self.next_step(ask, step.number)
                if answer is STOP:
                    return 0
                if isinstance(answer, int):
                    target = answer
                    if target <= step.number:  # back: replay from the start, unshown up to there
                        steps = export.replay(self.data)
        except export.ExportError as exc:
            print(f"python -m bot.terminal: {exc}", file=err)
            return 1
        self.end(step)
        return 0

    def header(self) -> None:
        """Who played, how many moves, with which options, and which edition of the rules."""
        lang, data, info = self.lang, self.data, self.info
        first = export.names_at(data, 0)  # a seat handed to a substitute: whom they played for
        players = ", ".join(
            lang.gettext("{substitute} (for {original})", substitute=name, original=first[i])
            if first[i] != name
            else name
            for i, name in enumerate(self.names)
        )
        self.say(
            lang.ngettext(
                "{game}, game #{number}: {players}; {n} move",
                "{game}, game #{number}: {players}; {n} moves",
                self.total,
                game=info.title,
                number=data.get("number"),
                players=players,
            )
        )
        # the variant the game was played with, as the table's own first line says it
        self.say(
            lang.gettext("Options: {options}", options=game_options_text(info.name, data["options"], lang))
        )
        if self.older:
            self.say(
                lang.gettext(
                    "made with edition {made} of the rules; this Pukllay plays edition {current}: every move "
                    "and the result are checked, not the states after each move",
                    made=export.edition(data),
                    current=self.module.EDITION,
                )
            )

    def told(self, step: export.Step) -> list[str]:
        """Print the move of ``step``; its event lines.  Every line of the replayed move in full
        (the seed is in the file), except for a move kept secret for good: only what a spectator
        reads of it (:func:`bot.export.replay` gives no more)."""
        lang = self.lang
        then = export.names_at(self.data, step.number)  # a seat handed over: whoever held it then
        events = [plain(name_seats(in_words(self.line(e), lang) or "", then)) for e in step.events]
        shown = lang.gettext("a move kept secret ({mask})", mask=step.move) if step.secret else step.move
        who = lang.gettext("the table") if step.seat == TABLE else then[step.seat]
        self.say(f"{step.number}. {who}: {shown}" + (f" ({'; '.join(events)})" if events else ""))
        return events

    def line(self, event: Event) -> str | Said:
        """An event's whole line, as the history reads it (the game's ``worded``: Guacamole's cards
        in words), or its English text when it kept no sentence."""
        if event.said is None:
            return event.text
        return event.said if self.word is None else self.word(event.said)

    def board(self, step: export.Step, events: list[str]) -> None:
        if self.renderer is None or self.folder is None:
            return
        png = self.renderer.render(
            self.module.view_for(step.state, None),
            names=export.names_at(self.data, step.number + 1),  # the holders from this position on
            last_action=events[0] if events else None,
            language=self.args.language,
            options=board_options(self.info.name, self.data["options"], self.lang),
        )
        path = self.folder.write(f"move-{step.number:04d}.png", png)
        self.say("  " + self.lang.gettext("board: {path}", path=path))

    def next_step(self, ask: Prompter, number: int) -> object:
        """After move ``number`` in steps: :data:`FORWARD`, :data:`STOP` (said), or the number of
        the move to go to; asked again after an answer that is none of them."""
        lang, total = self.lang, self.total
        while True:
            asked = lang.gettext(
                "Enter: the next move; a number: go to that move (1 to {total}); q: stop>", total=total
            )
            answer = ask(asked + " ")
            if answer is None or answer.strip().lower() in ("q", command_word(lang, "quit"), "quit"):
                self.say(lang.gettext("replay stopped at move {n} of {total}", n=number, total=total))
                return STOP
            answer = answer.strip()
            if not answer:
                return FORWARD
            if answer.isdecimal() and 1 <= int(answer) <= total:
                return int(answer)
            self.say(
                "  "
                + lang.gettext(
                    "there is no move {answer}; the moves are 1 to {total}", answer=answer, total=total
                )
            )

    def end(self, step: export.Step | None) -> None:
        """The final board, the result, and what the replay checked."""
        lang, total, module = self.lang, self.total, self.module
        if self.renderer is not None and self.folder is not None and step is not None:
            # a game the table ended before its rules did (a resignation, an abandon): its last board
            # says how it ended, not whose turn it would be (as the channel's last board does)
            ended = None
            if self.data.get("status") == "abandoned":
                reason = self.data.get("ended")  # (anyone may have written the file)
                ended = abandon_words(reason if isinstance(reason, str) else None, lang)
            elif self.outcome is not None and module.outcome(step.state) is None:
                ended = lang.gettext(
                    "Game over: {reason}", reason=name_seats(self.outcome.reason_in(lang), self.names)
                )
            png = self.renderer.render(
                module.view_for(step.state, None),
                names=self.names,
                language=self.args.language,
                ended=ended,
                options=board_options(self.info.name, self.data["options"], lang),
            )
            self.say("  " + lang.gettext("final board: {path}", path=self.folder.write("final.png", png)))
        if self.outcome is not None:
            print_outcome(self.outcome, self.names, self.out, lang)
        if self.older:
            agrees = lang.ngettext(
                "Every move of the export is legal and the replay reaches its result ({n} move).",
                "Every move of the export is legal and the replay reaches its result ({n} moves).",
                total,
            )
        else:
            agrees = lang.ngettext(
                "The replay agrees with the export, move by move ({n} move).",
                "The replay agrees with the export, move by move ({n} moves).",
                total,
            )
        self.say(agrees)
        secret = sum(
            1 for m in self.data["moves"] if isinstance(m, dict) and m.get("move") is None and m.get("secret")
        )
        if secret:
            self.say(
                lang.ngettext(
                    "{n} move was kept secret for good by its player, so it is not in the file: the replay "
                    "checked that a legal move of that kind leads to the same board for everyone, not which "
                    "move it was.",
                    "{n} moves were kept secret for good by their players, so they are not in the file: the "
                    "replay checked that a legal move of that kind leads to the same board for everyone, not "
                    "which move it was.",
                    secret,
                )
            )
