"""The Discord side of the table as the bot holds it: :class:`Front`, the parts that meet players.

Each part is one feature (see the package's docstring); the front makes them once, in the order
they depend on one another, hands each the parts it uses, and wires the three things the board
posts leave to the parts above them (the board's buttons, the lobby message when a game ends, the
results card), and the computers' turns that follow a board (:mod:`bot.surface.catchup`).  Cogs reach a part as ``bot.ready_front().lobby``; a persistent component finds its
part with :func:`bot.surface.replies.part_of`.  Imports: every :mod:`bot.surface` feature module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.history import History
from bot.sessions import SessionService
from bot.surface.boards import Boards
from bot.surface.catchup import CatchUp
from bot.surface.clockvote import ClockDesk, TimeoutButton
from bot.surface.direct import Notifier, PrivateViewButton
from bot.surface.export import Export
from bot.surface.history import HistoryButton, HistoryPages, HistorySelect
from bot.surface.lobby import Lobby, LobbyButton
from bot.surface.look import Look
from bot.surface.menus import HandButton, Menus, MoveButton, MoveSelect, NavButton, TurnButton
from bot.surface.reminders import Reminders
from bot.surface.replies import Replies
from bot.surface.results import RematchButton, Results
from bot.surface.undo import UndoButton, UndoRequests
from bot.surface.waits import Waits
from bot.undo import UndoService

if TYPE_CHECKING:
    from bot.surface.tableparts import TableClient

# Every persistent component, registered with the bot so that old messages' buttons keep working.
DYNAMIC_ITEMS = (
    LobbyButton,
    TurnButton,
    HandButton,
    MoveButton,
    MoveSelect,
    NavButton,
    HistoryButton,
    HistorySelect,
    UndoButton,
    RematchButton,
    PrivateViewButton,
    TimeoutButton,
)


class Front:
    """The parts of the Discord side, made once by the bot's ``setup_hook``."""

    def __init__(self, bot: TableClient, service: SessionService):
        self.history = history = History(service)  # the games' history, for the pages and the web
        self.look = Look(bot, service)
        self.notifier = Notifier(self.look)
        self.reminders = Reminders(self.notifier)  # the remind job, /game mine, /play next
        self.notifier.turn_waits = self.reminders.turn_waits
        self.replies = Replies(self.notifier, service.metrics)
        self.boards = Boards(self.look, self.notifier, self.replies, history)
        self.catchup = CatchUp(self.boards)  # the computers' turns after a board, and the catch-up
        self.lobby = Lobby(self.boards, self.replies)
        self.menus = Menus(self.boards, self.replies)
        self.pages = HistoryPages(self.look, history)
        self.export = Export(self.pages)
        self.undo = UndoRequests(self.boards, self.pages, UndoService(service, history))
        self.results = Results(self.lobby)
        self.clocks = ClockDesk(self.boards, self.lobby)
        self.boards.controls = self.menus.board_buttons
        self.boards.follow = self.catchup.computers_follow
        self.replies.unsure = self.catchup.recover
        self.boards.lobby_changed = self.lobby.refresh
        self.boards.finished = self.results.card
        self.boards.after_board.append(self.undo.close_void)
        self.notifier.channel_gone = self.boards.channel_gone
        self.clocks.clock_changed = self.undo.clock_changed
        self.boards.after_board.append(self.clocks.close_answered)
        # forced moves, passes ahead, clock warnings, watchers, followers, /play next
        self.waits = Waits(self.boards, self.reminders)
        self.boards.waits_after = self.waits.posted
        self.boards.waits_resumed = self.waits.resume
        self.boards.waits_told = self.waits.told_after
        self.boards.waits_stepped = self.waits.stepped
