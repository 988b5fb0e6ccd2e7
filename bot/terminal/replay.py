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
from bot.texts import game_options_text
from engines.core import TABLE, Event, Said, in_words, name_seats


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
        outcome = export.final_outcome(data)  # a result that is not one is refused before the replay
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
    first = export.names_at(data, 0)  # a seat handed to a substitute: whom they played for
    players = ", ".join(
        lang.gettext("{substitute} (for {original})", substitute=name, original=first[i])
        if first[i] != name
        else name
        for i, name in enumerate(names)
    )
    print(
        lang.ngettext(
            "{game}, game #{number}: {players}; {n} move",
            "{game}, game #{number}: {players}; {n} moves",
            total,
            game=info.title,
            number=data.get("number"),
            players=players,
        ),
        file=out,
    )
    # the variant the game was played with, as the table's own first line says it
    print(
        lang.gettext("Options: {options}", options=game_options_text(info.name, data["options"], lang)),
        file=out,
    )
    older = export.earlier(data)  # checked by its moves and result, not state by state
    if older:
        print(
            lang.gettext(
                "made with edition {made} of the rules; this Pukllay plays edition {current}: every move "
                "and the result are checked, not the states after each move",
                made=export.edition(data),
                current=module.EDITION,
            ),
            file=out,
        )

    def who(seat: int, then: list[str]) -> str:
        return lang.gettext("the table") if seat == TABLE else then[seat]

    word: Callable[[Said], Said] | None = getattr(module, "worded", None)

    def told(event: Event) -> str | Said:
        """An event's whole line, as the history reads it (the game's ``worded``: Guacamole's cards
        in words), or its English text when it kept no sentence."""
        if event.said is None:
            return event.text
        return event.said if word is None else word(event.said)

    def board(step: export.Step, events: list[str]) -> None:
        if renderer is None or folder is None:
            return
        png = renderer.render(
            module.view_for(step.state, None),
            names=export.names_at(data, step.number + 1),  # the holders from this position on
            last_action=events[0] if events else None,
            language=args.language,
            options=board_options(info.name, data["options"], lang),
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
            then = export.names_at(data, step.number)  # a seat handed over: whoever held it then
            events = [plain(name_seats(in_words(told(e), lang) or "", then)) for e in step.events]
            shown = lang.gettext("a move kept secret ({mask})", mask=step.move) if step.secret else step.move
            print(
                f"{step.number}. {who(step.seat, then)}: {shown}"
                + (f" ({'; '.join(events)})" if events else ""),
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
        print(f"python -m bot.terminal: {exc}", file=err)
        return 1
    if renderer is not None and folder is not None and step is not None:
        # a game the table ended before its rules did (a resignation, an abandon): its last board
        # says how it ended, not whose turn it would be (as the channel's last board does)
        ended = None
        if data.get("status") == "abandoned":
            ended = lang.gettext("This game was abandoned.")
        elif outcome is not None and module.outcome(step.state) is None:
            ended = lang.gettext("Game over: {reason}", reason=name_seats(outcome.reason_in(lang), names))
        png = renderer.render(
            module.view_for(step.state, None),
            names=names,
            language=args.language,
            ended=ended,
            options=board_options(info.name, data["options"], lang),
        )
        print("  " + lang.gettext("final board: {path}", path=folder.write("final.png", png)), file=out)
    if outcome is not None:
        print_outcome(outcome, names, out, lang)
    if older:
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
    print(agrees, file=out)
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
