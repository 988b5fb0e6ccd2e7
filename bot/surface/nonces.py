"""The nonce of a post that a stop may have the bot send again: told once within Discord's minutes.

A board (with the lines and note it carries), the message telling a game's abandon and a results
card are recorded as posted once Discord has taken them.  A process stopped between the two (a
crash, a deploy) finds them untold at its next start, and its catch-up or the ``board`` job's try
posts them again.  Discord's create message takes a ``nonce`` with ``enforce_nonce`` (discord.py
sends it with every ``send(nonce=...)``): when the same author created a message with that nonce in
the past few minutes, Discord creates none and answers with that message, which the bot then records
as posted as it would a new one.  So these posts carry a nonce made here, the same each time the
same thing is told and different for anything else; past Discord's few minutes a repeat is posted
again (at least once, as before).  A post a person asks for on purpose (``/game board``) keeps
discord.py's random nonce: it must post anew.

The posts a stop may make twice (posted, then recorded: a stop between the two repeats the post),
as post -> what records it -> its nonce, or why none:

- a board, the abandon's message, lines after it, a results card (``boards``, ``results``) ->
  the game's row (``board_message_id``, ``told_through``, ``end_told``, ``card_told``) and its
  ``board`` job -> :data:`BOARD`, :data:`ABANDON`, :data:`LINES`, :data:`CARD`;
- a timeout question (``clockvote``), and the direct messages telling it to those who want one
  (or the mention under it in place of a refused one) -> its message kept in its ``timeout`` job,
  then, once they are told, its ``ask`` job cancelled (``ClockDesk.told_asked``) ->
  :data:`QUESTION`, naming the seat and the time-out (a later question for the same seat, after
  more time, is another post); the direct message :data:`QUESTION_DM`, naming the person and the
  questions' messages, the mention the same, naming those it mentions; made again by the ``ask``
  job two minutes after the time-out, so within Discord's minutes, which asks every question of
  that time-out whose ``ask`` job is still pending together (``ClockDesk.ask_again``), so that a
  person written to about several questions at once is written the same message again (sibling
  jobs take turns in a process, and find their job gone; two processes send the same nonces);
- the line saying what was decided about it, nobody answering or a person (``ClockDesk.say``) ->
  the ``timeout`` job's ``taken`` mark dropped (with more time, once the board calling the seat
  again is posted) -> :data:`CLOCK_LINE`, naming the seat and the time-out (the first answer
  decides: one line a time-out);
- a league round's check-in call (``bot.league.presence.CheckinDesk.announce``) -> the window
  marked called -> :data:`LEAGUE`, naming the league, round and window's close (its direct
  messages, sent before it, the same and their reader); made again by the round's job once the
  stopped process's lease (two minutes) is over, so within Discord's minutes;
- who sat a round out (``CheckinDesk.opened``), the direct messages to who missed the check-in
  and the organiser's letter about the tables they fixed that could not be kept
  (``CheckinDesk.fixed_not_kept``: its post and its direct message), before it -> the round
  settled or the next check-in armed -> :data:`LEAGUE`, naming the league, the post (or message
  and reader) and round (the letter: and the tables not kept); each piece of a text too long for
  one message (:func:`bot.texts.pieces`) its own.  Its guard is the round's, which the opening
  holds, renewed as each table opens (:mod:`bot.league.guard`), so it never fires while an opening
  runs, and fires two minutes after a stop's last renewal
  (:data:`bot.league.service.RESUME_AFTER`), so within Discord's minutes;
- a season's end: the champion's direct message, the champion with the standings picture, the
  standings, the bracket's picture and text (``bot.league.season.Rounds.announce``) -> the league
  marked announced -> :data:`LEAGUE`, naming the league and the post (the direct message: and its
  reader); each piece its own.  Its guard fires two minutes on
  (:data:`bot.league.service.ANNOUNCE_AFTER`), so within Discord's minutes; a guard firing while the
  end is still being told sends the same posts, which Discord answers with the first ones;
- a round's reminder and warning of its late games (``bot.league.noshow_desk``: the line in each
  game's thread and the direct message to each late player), and the organiser's letter listing
  the late games (``bot.league.organiser.tell``: its post and its direct message) -> the
  ``league_nudge`` job armed for the warning, or done -> :data:`LEAGUE`, naming the league, the
  stage, the round, the game and who is late (the letter: the round and its tables; a direct
  message: its reader too); made again once the stopped process's lease (two minutes) is over;
- the line saying who did not play in time at a round's deadline (``NoShowDesk.apply``) -> the
  ``league_deadline`` job done (the no-shows, stored before it, are not counted twice) ->
  :data:`LEAGUE`, naming the league, round, game, whether the deadline or the organiser decided,
  and who; made again once the stopped process's lease is over;
- a round's post and its games' opening lines (``Rounds.open_games``) -> posted after the games
  are stored as opened, and a restart that finds them all open posts neither again: none needed;
- a table's thread or forum post (``Rounds.open_table``, ``calendar``; the post's first message is
  the table's text) -> the game opened in it -> none: threads take no nonce (nor does a forum
  post's ``message``), so the round's guard, opening what a stop left unopened, first looks for the
  one the stopped opening made (:func:`bot.league.calendar.left_behind`: an active thread of the
  table's exact name in the league's channel or forum, made by the bot, with no game in it; read
  from the gateway's cache of active threads, or Discord's list of them for a server this process
  does not have) and opens the game there: once (no guard fires while an opening runs, renewing
  its hold as each table opens, so none finds a thread a live opening has just made; should Discord
  take over two minutes on one table, the opening, finding its hold taken, leaves the rest to the
  guard);
- a reminder, or the turn notice quiet hours held, which a reminder brings (``Reminders.remind``),
  and the mention in each game's channel in place of it -> the ``remind`` job armed again or done
  -> :data:`REMINDER`, naming the person, when the job was due (which reminder: the next one is
  another post) and whether it brought a held notice (a mention: and the game); made again once the
  stopped process's lease (two minutes) is over, so within Discord's minutes;
- what follows a board once it is recorded (``Boards.post_board``): the turn notice by direct
  message of each person whose turn it began, or the mention in its place
  (``Notifier.after_board``, which arms their reminders too, ``Reminders.turn_waits``: armed already,
  one stays), and a
  game's end told at once (``game_ended``) -> the board's ``after_board`` job, armed in the step
  that records the board and dropped once they are told -> :data:`TURN`, naming the person and the
  board (the mention another), and :data:`END_DM`; made again once the stopped process's hold (two
  minutes) is over, so within Discord's minutes; a board no longer the game's last by then leaves
  its turn to the boards since, but for the seats it called that have not moved since; the same job plays a pass declared ahead and arms a forced move's
  and the clocks' jobs (``Waits.resume``: no post, the same done twice);
- a game's end told to a player whose quiet hours held it (``tell_end`` from the ``end_notice``
  job), or the mention in its place -> the job done -> :data:`END_DM`, naming the game and the
  person (a game ends once);
- the direct message about a game's timeout questions still open when the person's quiet hours
  end (``clockvote.tell_held``, the ``timeout_notice`` job) -> the job done -> :data:`QUESTION_DM`,
  naming the person and the questions' messages (a later question is another);
- a reminder that a round still waits for the organiser's review (``bot.league.review.remind``)
  -> the next reminder armed -> :data:`LEAGUE`, naming the league, round and when the reminder was
  due (the next one is another); made again once the stopped process's lease is over;
- the organiser's letter about a table's deleted thread (``Rounds.tell_gone``: its game finished
  by the computer, or ended already and its last board unposted) -> the game finished before it,
  so a restart tells the second (a board's try finding the thread gone, in each process it does)
  -> :data:`LEAGUE`, naming the league, round, game and which of the two; and the one about
  damaged games at a round's deadline (``Rounds.tell_broken``), not repeated by a restart (below)
  -> :data:`LEAGUE` all the same, naming the league, round and games;
- the letter that a round waits for the organiser's review (``bot.league.review.tell_waiting``)
  -> the round's job, armed with the draft to tell it two minutes on, armed again as the
  reminder -> :data:`LEAGUE`, naming the league and round, so within Discord's minutes;
- not repeated by a restart, so none: a lacking permission's letter (the round's job armed again,
  naming what is missing, before it), a damaged game's letter at the deadline (the game is ended
  before it, so the job's next try finds none), and who is dropped and a substitute's line and
  direct message (the drop, or the seat handed over, stored before them: the next try finds the
  player dropped, the seat taken): a stop loses rather than repeats them;
- not repeated by a restart, so none: a lobby's message, thread and welcome (``lobby``) and every
  other answer to a person's command or click (a stop loses them; the person asks again), and the
  direct messages telling that a board or question was refused (``unposted``: what they told is
  kept in the job before they are sent, so a stop loses rather than repeats them);
- the rest of what follows a board once it is recorded (``Boards.post_board``): a watched game's
  post to each watcher, and at a game's first board the followers' notice of its start
  (``bot.surface.waits``; the start marked told before it is sent) -> the board's ``after_board``
  job, as above, whose try sends the post to the watchers while the board is still the game's last
  (its text read from the board's message, its picture drawn with the line the job keeps) and the
  start to the followers, marked told or not (``Waits.told_after``) -> :data:`WATCH`, naming the
  watcher and the board, and :data:`FOLLOW`, naming the follower (a game starts once); made again
  once the stopped process's hold (two minutes) is over, so within Discord's minutes;
- not repeated by a restart, so none: a clock's warning (``waits``), marked given before it is sent;
- the queue's posts (``bot.queue.tables``): a table's first post and its Confirm message are made
  while the table is held, before its row keeps the message; a restart does not post them again
  (the table's ``queue_confirm`` job gives its people back when the time to confirm is over, and
  a new table has a thread and post of its own), and the people told by DM (``tell``) are taken
  out of the queue before it: none;
- a round's direct message to its players is sent as its games open and not again: none.

Imports: :mod:`bot.sessions` (types).
"""

from __future__ import annotations

import hashlib
import json
import secrets

from bot.sessions import Session

LENGTH = 25
"""The most characters Discord takes in a nonce."""

BOARD, ABANDON, LINES, CARD = "b", "a", "l", "r"
"""What a post tells: a board, a game's abandon, lines told after the abandon, its results card."""
QUESTION, CLOCK_LINE = "q", "c"
"""A timeout question, and the line saying what was decided about it (nobody answered, or who did)."""
LEAGUE = "L"
"""A league's post (what it tells named by the league: :func:`told_nonce`)."""
TURN = "t"
"""A turn notice (or the mention in its place), named by the person and the board that began the
turn."""
REMINDER, END_DM, QUESTION_DM = "m", "e", "d"
"""A person's reminder (or the turn notice quiet hours held, which it carries), named by the person
and when their ``remind`` job was due; a game's end told to one player (or the mention in its
place); the direct message about timeout questions, named by the person and the questions'
messages."""
WATCH, FOLLOW = "w", "f"
"""A watched game's board sent to a watcher, named by the watcher and the board; a game's start told
to a follower of its players, named by the follower."""


def post_nonce(session: Session, kind: str, *told: object) -> str:
    """The nonce of ``session``'s post of ``kind`` telling ``told`` (what tells it apart from the
    game's other posts of that kind: a board's, the board it follows, the last move it tells and
    the sentences the ``board`` job handed it).  Not its text: a board's says the time left on a
    clock, which a restart reads anew, and a restart's telling lacks the words handed to the post
    it repeats (an answer's line), which only the stopped process had.

    ``kind`` and the game's number lead it, for a reader of the log; the rest is a hash of those,
    ``told`` and what makes the game itself unique where numbers might repeat (its channel and
    creation, should a database restored from a backup give a number out again), up to
    :data:`LENGTH` characters.  Never its seed: a message's nonce comes back with the message, and
    everything else hashed is known to the channel, so a hash of the seed could be tried against
    every seed until one matched, which would show the game's hidden shuffle."""
    row = session.row
    return told_nonce(kind, row.id, row.channel_id, row.created_at, kind, *told)


def told_nonce(kind: str, number: object, *told: object) -> str:
    """The nonce of a post of ``kind`` about the thing numbered ``number`` (a game, a league),
    telling ``told`` (with what makes that thing unique where numbers might repeat):
    ``kind`` and ``number`` lead it, a hash of both and ``told`` follows."""
    head = f"{kind}{number}."
    if len(head) > 12:  # (a number that long: the hash tells the game)
        head = kind
    text = json.dumps([number, *told], sort_keys=True, default=str)  # (what the ``board`` job keeps is JSON)
    return head + hashlib.sha256(text.encode()).hexdigest()[: LENGTH - len(head)]


def anew() -> int:
    """The nonce of a post that must be posted anew each time: a random one, as discord.py gives a
    send without a nonce."""
    return secrets.randbits(64)
