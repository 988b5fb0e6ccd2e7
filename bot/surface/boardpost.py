"""One board post's values and its message: what it was asked to tell, what it read, what it sends.

:meth:`bot.surface.boards.Boards.post_board` takes its steps over a :class:`Post` (what the post
was asked to tell, and what the game's ``board`` job keeps owed that it carries) and a
:class:`Read` (the untold moves, the language, the people and the seats it calls on).  Here are
the steps that touch no job: whether a catch-up still has anything to tell
(:func:`worth_posting`), what the board tells (:func:`read_board`), and its message, composed
from them (:func:`compose`: the text, the picture, the mentions, the buttons
and the nonce), and what a post keeps for the ``board`` job's try is decided (:meth:`Post.handed`,
:meth:`Post.refused`).

Imports: discord, :mod:`bot.sessions`, :mod:`bot.storage`, and :mod:`bot.surface` direct, look,
nonces, unposted, written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

import discord

from bot import texts
from bot.records import MoveRecord
from bot.sessions import RatingChange, Session, SessionService
from bot.sessions.play import turn_ended
from bot.storage import PersonRow
from bot.surface import nonces, unposted, written
from bot.surface.direct import Notifier
from bot.surface.look import Look
from bot.surface.unposted import HANDED, Inside
from engines.core import Outcome, Said
from languages import Language


@dataclass
class Post:
    """A board post as asked (:meth:`bot.surface.boards.Boards.post_board`'s arguments, ``own``
    its note), then as its steps settle it: ``session`` read again (and with its seats' holders),
    ``owed`` what the ``board`` job keeps that this board carries, ``notes`` the notes of boards
    refused before it and its own; a catch-up may take the header, ``begins``, ``ping`` and
    ``restarted`` of a board refused inside a turn."""

    session: Session
    header: str | Said | None
    own: tuple[Said, ...]
    outcome: Outcome | None
    ratings: tuple[RatingChange, ...]
    ping: bool
    begins: bool
    catching_up: bool
    restarted: tuple[int, ...]
    lines: tuple[Said, ...]
    pings: tuple[int, ...]
    again: bool
    owed: Inside | None = None
    notes: tuple[Said, ...] = ()

    def handed(self) -> Inside:
        """This post's sentences, handed to the ``board`` job when another process posts the game's
        board (:data:`HANDED`): whom it calls on, its header (but a first board's, which goes with
        that board), lines and note, told with the next board, whichever it follows."""
        said = self.header if isinstance(self.header, Said) and not self.begins else None
        return Inside(HANDED, self.ping, self.restarted, said, self.lines, self.pings, self.own)

    def refused(self, records: list[MoveRecord]) -> Inside | None:
        """What the ``board`` job keeps of this board, which Discord refused (its header is joined
        to the lines owed already).  A board inside a turn is owed as long as the board before it
        is the last posted, so it keeps everything it was posted with; a turn's board or a game's
        first one the catch-up posts again anyway, so it keeps only its lines, pings and notes, and
        a first board its own header; None: nothing to keep."""
        session = self.session
        board = session.row.board_message_id
        kept = self.header if isinstance(self.header, Said) else None
        if (
            board is not None
            and session.status == "active"
            and not self.begins
            and not turn_ended(session, records)
        ):
            return Inside(board, self.ping, self.restarted, kept, self.lines, self.pings, self.notes)
        if self.lines or self.notes or (board is None and kept is not None):
            first = kept if board is None else None  # a first board keeps its own header
            return Inside(board or 0, header=first, lines=self.lines, pings=self.pings, notes=self.notes)
        return None


@dataclass(frozen=True)
class Read:
    """What a board post read to tell its moves: the untold ``records``, the channel's
    ``language``, the ``people`` to move, the ``players`` (at the first and last board), the seats
    it ``called`` on, and whether the game ``ended``."""

    records: list[MoveRecord]
    language: Language
    people: dict[int, PersonRow]
    players: dict[int, PersonRow]
    called: frozenset[int]
    ended: bool


class Sent(TypedDict, total=False):
    """What a board's :meth:`discord.abc.Messageable.send` takes."""

    content: str
    allowed_mentions: discord.AllowedMentions
    file: discord.File
    view: discord.ui.View
    nonce: str


@dataclass(frozen=True)
class Board:
    """A composed board: what :meth:`discord.abc.Messageable.send` takes (``send``), the public
    line its picture shows (``last``), and the last move it tells (``through``)."""

    send: Sent
    last: str | None
    through: int


async def worth_posting(post: Post, service: SessionService) -> bool:
    """Whether a catch-up (or any other post: True) still has something to tell, and what: a
    game's end read untold, unless a post made since told it (:attr:`SessionRow.end_told
    <bot.storage.SessionRow.end_told>`); for a game still running, a turn that ended untold, and,
    a board posted meanwhile, a board refused inside a turn while no board has followed the one
    before it (:meth:`Boards.owed_inside <bot.surface.boards.Boards.owed_inside>`), which comes
    back with the ``ping``, ``restarted`` and ``header`` it had, calling on nobody it would not
    have; a first board refused under its own header (a league round's) takes it again.  A turn
    half played before a restart, with no board refused, is told when it ends."""
    session, owed = post.session, post.owed
    if not post.catching_up:
        return True
    if session.status == "finished" and post.outcome is not None:  # its end, read untold
        if session.row.end_told:  # a post made since told it
            return False
    elif session.status != "active":
        return False
    elif session.row.board_message_id is not None:  # a board was posted meanwhile
        post.header, post.begins = None, False
        if not await service.play.turn_untold(session):
            if owed is None:
                return False  # it told everything
            # a board refused inside a turn, posted inside it: it calls on those it would
            # have, under its header
            post.ping, post.restarted, post.header = owed.ping, owed.restarted, owed.header
    elif owed is not None and owed.header is not None:
        post.header = owed.header  # a first board refused under its own header (a league round's)
    return True


async def read_board(post: Post, service: SessionService, look: Look, notifier: Notifier) -> Read:
    """Read what the board tells: the untold moves from the move log (so a turn half played
    before a restart is told in full; a turn begun before a seat was handed to a substitute is
    told as its earlier holder's), the channel's language, the people to move (and every
    player at the first and last board), and the seats whose turn this board begins or starts
    again (:meth:`bot.surface.direct.Notifier.called`), told once: the others still to move were
    told when it began, and are named without a ping, as a board inside a turn (an undo inside
    a shared round, a seat handed over) names them.  Those it calls on are pinged if they want
    a mention, and sent a turn notice if they want one, once the board is posted
    (:meth:`Boards.post_board <bot.surface.boards.Boards.post_board>`)."""
    # a turn begun before a seat was handed to a substitute is told as its earlier holder's
    post.session = session = await service.logbook.with_holders(post.session)
    records = await service.logbook.untold(session)
    language = await look.language(session)
    people = await notifier.people_to_move(session)
    ended = session.status == "finished"
    players = await notifier.players(session) if ended or post.begins else {}
    # the seats whose turn this board begins (or starts again): the others still to move
    # were told when it began, and are named without a ping
    live = post.ping and session.status == "active"
    called = notifier.called(session, records, post.restarted) if live else frozenset()
    return Read(records, language, people, players, called, ended)


async def compose(
    post: Post,
    read: Read,
    look: Look,
    notifier: Notifier,
    controls: Callable[[Session, Language], discord.ui.View | None],
) -> Board:
    """The board ``post`` sends: the text (the lines it carries and its header above the moves in
    ``read``, its notes, the outcome, who is to move and their clocks), the picture, the mentions
    (the first and the last board name every player, each who wants a mention pinged; else those
    it called on, and the people of the lines it carries), the buttons (``controls``) and, but for
    a board asked for again, the nonce naming what it tells (:func:`bot.surface.nonces.post_nonce`:
    the board it follows, the last move it tells, the game's status, and what it carries of the
    ``board`` job's, which a restart reads again, unlike the sentences handed in to the post), so
    that a board Discord took just before a stop, and the restart posts again, is not posted twice
    within Discord's few minutes, while one carrying sentences handed to the job since is posted."""
    session, language, owed = post.session, read.language, post.owed
    carried = [*(owed.lines if owed is not None else ()), *post.lines]
    above = [line.in_words(language) for line in carried]
    above.append(post.header.in_words(language) if isinstance(post.header, Said) else post.header or "")
    text = texts.board_text(
        written.session(session),
        read.records,
        header="\n".join(line for line in above if line),
        notes=post.notes,
        outcome=post.outcome,
        ratings=written.ratings(post.ratings),
        ping=post.ping,
        already=frozenset(session.to_move()) - read.called,
        away=notifier.away_labels(read.people, language),
        clock=await notifier.time_left(session, language),
        t=language,
    )
    last = texts.last_action(session, read.records, language)
    file = await look.render(
        session,
        last_action=last,
        language=language.code,
        contrast=await look.server_contrast(session),
    )
    mentions = (
        notifier.mentions(session, read.players)
        if read.ended or post.begins
        else notifier.mentions(session, read.people, read.called)
    )
    mentions = unposted.also_pinging(mentions, {*post.pings, *(owed.pings if owed is not None else ())})
    send: Sent = {"content": text, "allowed_mentions": mentions}
    if file is not None:
        send["file"] = file
    view = controls(session, language)
    if view is not None:
        send["view"] = view
    through = max([r.number for r in read.records if r.number is not None], default=0)
    through = max(through, session.row.told_through)
    if not post.again:  # the same board told again after a stop is Discord's first post of it
        follows = session.row.board_message_id or 0
        from_job = owed.payload() if owed is not None else {}
        send["nonce"] = nonces.post_nonce(session, nonces.BOARD, follows, through, session.status, from_job)
    return Board(send, last, through)
