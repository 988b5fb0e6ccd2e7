"""A league's round when the process opening or closing it stops half way: the round's job fires
again (the scheduler retries a handler that failed, and another process takes a job whose claim
ran out) and nothing is lost or done twice.

The rounds run through :class:`bot.league.season.Rounds` and :class:`bot.league.noshow_desk.NoShowDesk`
with the real scheduler; Discord is :class:`Desk`, the rounds' :class:`bot.league.season.Posts`
kept in memory, which stops (raises) where the test says, as a process killed there would.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.league.noshow_desk import NoShowDesk
from bot.league.season import Rounds
from bot.league.service import ANNOUNCE_AFTER, RESUME_AFTER, LeagueService
from bot.storage.leagues import DEADLINE_JOB, ROUND_JOB
from bot.time import jobs
from bot.time.scheduler import Scheduler
from languages import ENGLISH
from tests.league.test_service import DAY, new_league

NUDGE = jobs.LEAGUE_NUDGE


class Stopped(Exception):
    """The process stops here."""


class Desk:
    """The rounds' Discord, in memory: posts by channel, threads numbered from 7000."""

    def __init__(self):
        self.posts: dict[int, list[str]] = {}
        self.threads: list[int] = []
        self.names: dict[int, str] = {}  # each thread's name
        self.stop_at_thread: int | None = None  # raise when asked for this thread (1: the first)
        self.stop_at_post: str | None = None  # raise when asked to post a text holding this
        self.told: dict[str, list[tuple]] = {}  # what each text posted was told to name (its nonce)
        self.nonces: set[str] = set()  # the nonces posted: a repeat is the same message

    async def language(self, guild_id):
        return ENGLISH

    async def post(self, channel_id, guild_id, text, *, picture=None, pings=(), told=()):
        if self.stop_at_post is not None and self.stop_at_post in text:
            self.stop_at_post = None
            raise Stopped(text)
        self.told.setdefault(text, []).append(tuple(told))  # every telling, with what it names
        nonce = repr(tuple(told))  # (a nonce is text; what it names may hold lists)
        if told and nonce in self.nonces:
            return True  # Discord answers a nonce it saw within minutes with that message
        if told:
            self.nonces.add(nonce)
        self.posts.setdefault(channel_id, []).append(text)
        return True

    async def post_checkin(self, channel_id, guild_id, text, league_id, number, label, pings, told=()):
        return await self.post(channel_id, guild_id, text, pings=pings)

    async def missing_permissions(self, channel_id):
        return []

    async def open_thread(self, channel_id, name):
        if self.stop_at_thread == len(self.threads) + 1:
            self.stop_at_thread = None
            raise Stopped(name)
        self.threads.append(7000 + len(self.threads))
        self.names[self.threads[-1]] = name
        return self.threads[-1]

    async def threads_made(self, guild_id, channel_id, name):
        return [t for t in reversed(self.threads) if self.names[t] == name]  # (none archived)

    async def direct(self, user_id, text, *, told=()):
        return False

    async def post_board(self, session, header, lines=(), pings=()):
        return None

    async def announce(self, result):
        return None


ROUNDS: dict[int, Rounds] = {}


def leagues_rounds(scheduler):
    """The rounds the ``season`` fixture made for ``scheduler``."""
    return ROUNDS[id(scheduler)]


@pytest.fixture
def season(service, clock):
    leagues = LeagueService(service.store, service)
    desk = Desk()
    scheduler = Scheduler(service.store, owner="test", retry_after=60.0)
    rounds = ROUNDS[id(scheduler)] = Rounds(leagues, desk, scheduler)
    noshows = NoShowDesk(rounds)
    scheduler.register(ROUND_JOB, noshows.fire_round)
    scheduler.register(DEADLINE_JOB, noshows.fire_deadline)
    scheduler.register(NUDGE, noshows.fire_nudge)
    return leagues, desk, scheduler


async def started(leagues, players, **values):
    league = await new_league(
        leagues, name="Restarts", game="pachakuna", format="swiss", group_size=2, **values
    )
    for uid in players:
        await leagues.join(league, uid, f"P{uid}")
    league, _ = await leagues.start(league)
    return league


async def test_a_round_whose_opening_stopped_half_way_opens_its_other_games_when_its_job_fires_again(
    season, service, clock
):
    leagues, desk, scheduler = season
    league = await started(leagues, range(11, 17), rounds=2, days=3)  # six players: three tables
    desk.stop_at_thread = 2  # the process stops asking Discord for table 2's thread
    await scheduler.run_due()
    games = await service.store.leagues.league_games(league.id, 1)
    assert [g.status for g in games] == ["playing", "pending", "pending"]
    guard = await service.store.jobs.job(ROUND_JOB, str(league.id))  # the round's job, as a guard
    assert guard is not None and guard.payload == {"round": 1} and guard.due_at == clock.time() + RESUME_AFTER
    clock.advance(RESUME_AFTER - 1)
    assert await scheduler.run_due() == 0  # not before its time: the opening may still be under way
    clock.advance(1)
    await scheduler.run_due()
    games = await service.store.leagues.league_games(league.id, 1)
    assert [g.status for g in games] == ["playing"] * 3
    sessions = [await service.core.get(g.session_id) for g in games]
    assert Counter(s.row.channel_id for s in sessions) == Counter({7000: 1, 7001: 1, 7002: 1})
    assert sorted(u for s in sessions for u in (x.user_id for x in s.seats)) == list(range(11, 17))
    (told,) = desk.posts[50]  # the league's channel hears of the round once, with its three tables
    assert "round 1 of 2 is open" in told
    assert all(f"Table {n}: " in told and f"<#{7000 + n - 1}>" in told for n in (1, 2, 3))
    for thread in (7000, 7001, 7002):  # each table's players were called once, in its thread
        assert len(desk.posts[thread]) == 1
    assert (await service.store.jobs.job(NUDGE, f"{league.id}:1")) is not None  # the reminder is armed
    assert (await service.store.jobs.job(ROUND_JOB, str(league.id))) is None
    # Fired yet again (a stale claim), nothing more happens.
    await leagues.store.leagues.schedule_round(league.id, 1, clock.time())
    await scheduler.run_due()
    assert len(desk.threads) == 3 and len(desk.posts[50]) == 1


async def test_a_resumed_round_takes_no_thread_of_its_table_s_name_that_a_game_lived_in(
    season, service, clock
):
    """A league's season is over, and a new league of the same name plays in the same channel; its
    first round's opening stops before Discord makes its table's thread.  The round's guard looks for
    a thread the stopped opening made and finds the last season's table of the same name: a game
    lived there, so it is not taken, and the game opens in a new thread."""
    leagues, desk, scheduler = season
    first = await started(leagues, [41, 42], rounds=1, days=1)
    await scheduler.run_due()
    clock.advance(DAY)
    await scheduler.run_due()
    assert (await service.store.leagues.league(first.id)).status == "finished"
    league = await started(leagues, [41, 42], rounds=1, days=1)  # the same name, free again
    desk.stop_at_thread = 2  # the process stops asking Discord for the table's thread
    await scheduler.run_due()
    assert desk.names == {7000: "Restarts · round 1 · table 1"}
    clock.advance(RESUME_AFTER)
    await scheduler.run_due()
    (game,) = await service.store.leagues.league_games(league.id, 1)
    session = await service.core.get(game.session_id)
    assert session.row.channel_id == 7001 and desk.names[7001] == desk.names[7000]


async def test_a_deadline_whose_work_stopped_after_counting_no_shows_still_drops_them_when_fired_again(
    season, service, clock
):
    leagues, desk, scheduler = season
    league = await started(leagues, range(11, 15), rounds=3, days=1)  # four players: two tables
    await NoShowDesk(Rounds(leagues, desk, scheduler)).set_rules(league, "computer", 1, "original")
    await scheduler.run_due()
    games = await service.store.leagues.league_games(league.id, 1)
    late = set()
    for g in games:  # nobody plays: at the deadline, whoever is to move has a no-show
        session = await service.core.get(g.session_id)
        late |= {s.user_id for s in session.waiting_on()}
    assert len(late) == 2
    desk.stop_at_post = "did not play in time"  # the process stops once the first is counted
    clock.advance(DAY)
    await scheduler.run_due()
    assert set(await service.store.noshows.counts(league.id)) < late  # one counted so far
    clock.advance(60)  # the scheduler tries a failed job again a minute later
    await scheduler.run_due()
    assert await service.store.noshows.counts(league.id) == dict.fromkeys(late, 1)  # each once
    players = {p.user_id: p for p in await service.store.leagues.league_players(league.id)}
    assert {u for u, p in players.items() if not p.active} == late  # both reached one: both dropped
    await scheduler.run_due()  # round 2, due at once
    (game,) = await service.store.leagues.league_games(league.id, 2)
    assert set(game.players) == set(range(11, 15)) - late  # round 2 pairs only the two others
    dropped = [t for t in desk.posts[50] if "is dropped from **Restarts** after 1 no-show" in t]
    assert len(dropped) == 2


async def test_a_reviewed_round_whose_publishing_stopped_half_way_opens_its_other_games_later(
    season, service, clock
):
    from bot.league.controls import Controls

    leagues, desk, scheduler = season
    league = await started(leagues, range(21, 27), rounds=2, days=3, review=True)
    await scheduler.run_due()  # round 1 is paired and waits for the review
    assert (await service.store.leagues.league(league.id)).current_round == 0
    opened = await Controls(leagues).publish(await service.store.leagues.league(league.id))
    desk.stop_at_thread = 3  # the process stops asking Discord for table 3's thread
    with pytest.raises(Stopped):
        await leagues_rounds(scheduler).launch(opened)
    games = await service.store.leagues.league_games(league.id, 1)
    assert [g.status for g in games] == ["playing", "playing", "pending"]
    clock.advance(RESUME_AFTER)
    await scheduler.run_due()
    games = await service.store.leagues.league_games(league.id, 1)
    assert [g.status for g in games] == ["playing"] * 3
    assert len(desk.threads) == 3
    (told,) = [t for t in desk.posts[50] if "round 1 of 2 is open" in t]
    assert all(f"Table {n}: " in told and f"<#{7000 + n - 1}>" in told for n in (1, 2, 3))
    assert (await service.store.jobs.job(ROUND_JOB, str(league.id))) is None


async def test_a_season_whose_end_was_not_posted_before_the_process_stopped_is_posted_once_later(
    season, service, clock
):
    leagues, desk, scheduler = season
    league = await started(leagues, range(31, 35), rounds=1, days=1)
    await scheduler.run_due()
    desk.stop_at_post = "is over. Champion"  # the process stops as it crowns the champion
    clock.advance(DAY)
    await scheduler.run_due()
    ended = await service.store.leagues.league(league.id)
    assert ended.status == "finished" and ended.champion_id in range(31, 35)
    assert not [t for t in desk.posts[50] if "is over" in t]
    guard = await service.store.jobs.job(ROUND_JOB, str(league.id))
    assert guard is not None and guard.due_at == clock.time() + ANNOUNCE_AFTER  # within Discord's minutes
    clock.advance(ANNOUNCE_AFTER)
    await scheduler.run_due()
    (crown,) = [t for t in desk.posts[50] if "is over" in t]
    assert crown == f"🏆 **Restarts** is over. Champion: <@{ended.champion_id}>!"
    assert len([t for t in desk.posts[50] if "final standings after 1 round" in t]) == 1
    assert (await service.store.jobs.job(ROUND_JOB, str(league.id))) is None
    clock.advance(RESUME_AFTER)  # nothing is left to post it again
    await scheduler.run_due()
    assert len([t for t in desk.posts[50] if "is over" in t]) == 1


async def test_a_season_that_ends_without_a_stop_is_posted_once_and_leaves_no_job(season, service, clock):
    leagues, desk, scheduler = season
    league = await started(leagues, range(41, 45), rounds=1, days=1)
    await scheduler.run_due()
    clock.advance(DAY)
    await scheduler.run_due()
    assert len([t for t in desk.posts[50] if "is over. Champion" in t]) == 1
    assert (await service.store.jobs.job(ROUND_JOB, str(league.id))) is None


async def test_a_check_in_call_that_a_stopped_process_never_made_is_made_when_the_round_job_fires_again(
    season, service, clock
):
    from bot.league.presence import Attendance, CheckinDesk

    leagues, desk, scheduler = season
    rounds = leagues_rounds(scheduler)
    rounds.gate = CheckinDesk(rounds, desk, Attendance(leagues))
    league = await new_league(leagues, name="Calls", game="pachakuna", format="swiss", group_size=2, rounds=2)
    for uid in range(51, 55):
        await leagues.join(league, uid, f"P{uid}")
    await Attendance(leagues).configure(league, "first", 24.0, None)
    league, _ = await leagues.start(league)
    desk.stop_at_post = "check in for round 1"  # the process stops as it posts the call
    await scheduler.run_due()
    window = await service.store.attendance.window(league.id, 1)
    assert window is not None and not window.called
    assert not [t for t in desk.posts.get(50, []) if "check in for round 1" in t]
    clock.advance(60)  # the job is tried again
    await scheduler.run_due()
    (call,) = [t for t in desk.posts[50] if "check in for round 1" in t]
    assert (await service.store.attendance.window(league.id, 1)).called
    clock.advance(3600)  # the round's job, set for the window's close, fires again: no second call
    await scheduler.run_due()
    assert len([t for t in desk.posts[50] if "check in for round 1" in t]) == 1


async def test_a_guard_firing_while_the_round_is_still_opening_waits_for_it_and_opens_nothing_twice(
    season, service, clock
):
    """Discord is very slow: table 2's thread takes longer than the opening's two-minute hold on
    the round's guard.  The guard fires (another turn of the scheduler, in this process) while the
    opening is still under way; it waits for it, and the opening, finding its hold taken as it
    comes to table 3, leaves the rest to the guard: three threads, one post in the channel."""
    import asyncio

    leagues, desk, scheduler = season
    league = await started(leagues, range(41, 47), rounds=2, days=3)  # six players: three tables
    asking, answered = asyncio.Event(), asyncio.Event()
    quick = desk.open_thread

    async def slow_thread(channel_id, name):
        if len(desk.threads) == 1:  # table 2's thread: Discord takes its time
            asking.set()
            await answered.wait()
        return await quick(channel_id, name)

    desk.open_thread = slow_thread
    opening = asyncio.create_task(scheduler.run_due())
    await asking.wait()
    clock.advance(RESUME_AFTER)
    guard = asyncio.create_task(scheduler.run_due())  # the round's guard is due: it fires
    for _ in range(200):  # let the guard run as far as it can before the thread comes back
        await asyncio.sleep(0)
    answered.set()
    await asyncio.gather(opening, guard)
    games = await service.store.leagues.league_games(league.id, 1)
    assert [g.status for g in games] == ["playing"] * 3
    assert len(desk.threads) == 3
    assert len([t for t in desk.posts[50] if "round 1 of 2 is open" in t]) == 1


async def stopped_and_resumed(season, service, clock, name, players, stop_at, fixed=None):
    """A Swiss league of ``players`` with a check-in before every round, which every player but
    the last checks in for (``fixed``: a table the organiser fixed for round 1); round 1 opens its
    two games and the process stops at the post holding ``stop_at``, then the round's guard fires."""
    from bot.league.controls import Controls
    from bot.league.presence import Attendance, CheckinDesk

    leagues, desk, scheduler = season
    rounds = leagues_rounds(scheduler)
    attendance = Attendance(leagues)
    rounds.gate = CheckinDesk(rounds, desk, attendance)
    league = await new_league(leagues, name=name, game="pachakuna", format="swiss", group_size=2, rounds=2)
    for uid in players:
        await leagues.join(league, uid, f"P{uid}")
    await attendance.configure(league, "every", 24.0, None)
    league, _ = await leagues.start(league)
    if fixed:
        await Controls(leagues).fix(league, fixed)
    await scheduler.run_due()  # round 1's check-in opens
    for uid in players[:-1]:  # the last does not check in
        await attendance.check_in(await service.store.leagues.league(league.id), uid)
    desk.stop_at_post = stop_at
    clock.advance(DAY)
    await scheduler.run_due()  # round 1 opens its games, then the process stops
    assert len(desk.threads) == 2
    clock.advance(RESUME_AFTER)  # the round's guard fires
    await scheduler.run_due()
    return league


async def test_a_round_whose_process_stopped_after_opening_its_games_still_says_who_sat_out_and_arms_the_check_in(
    season, service, clock
):
    """Every game of round 1 is open when the process stops, posting who did not check in: the
    round's guard, firing, tells it once, and arms round 2's check-in for its time (without it
    the check-in would open only at round 1's deadline, holding round 2 back a whole window)."""
    _, desk, scheduler = season
    league = await stopped_and_resumed(season, service, clock, "Sat", range(61, 66), "Not paired in round 1")
    (told,) = [t for t in desk.posts[50] if "Not paired in round 1" in t]
    assert told.endswith("(did not check in): <@65>")
    deadline = (await service.store.leagues.league_rounds(league.id))[0].deadline_at
    job = await service.store.jobs.job(ROUND_JOB, str(league.id))
    assert job is not None and job.payload == {"round": 2} and job.due_at == deadline - DAY
    clock.advance(RESUME_AFTER)  # nothing is left to tell twice
    await scheduler.run_due()
    assert len([t for t in desk.posts[50] if "Not paired in round 1" in t]) == 1
    assert len([t for t in desk.posts[50] if "round 1 of 2 is open" in t]) == 1
    assert len(desk.threads) == 2


async def test_a_stop_while_telling_the_organiser_of_a_fixed_table_not_kept_says_who_sat_out_once(
    season, service, clock
):
    """The organiser fixed a table with a player who then missed the check-in; the process stops
    while telling them the table could not be kept.  The round's guard, firing, tells them and
    says who sat the round out, and that post is made once: it is the last thing told before the
    guard is spent (it came before the organiser's notice, and a stop there posted it twice)."""
    _, desk, scheduler = season
    league = await stopped_and_resumed(
        season, service, clock, "Fix", range(71, 76), "could not be kept", fixed=[71, 75]
    )
    clock.advance(RESUME_AFTER)
    await scheduler.run_due()
    posts = desk.posts[50]
    assert len([t for t in posts if "Not paired in round 1" in t]) == 1, posts
    assert len([t for t in posts if "the table you fixed for round 1 of 2 of **Fix**" in t]) == 1, posts
    job = await service.store.jobs.job(ROUND_JOB, str(league.id))
    assert job is not None and job.payload == {"round": 2}


@pytest.mark.parametrize("how", ["job", "published", "resumed"])
async def test_a_slow_opening_is_never_joined_by_its_guard_in_another_process(season, service, clock, how):
    """Eight tables, each taking Discord a minute and a half: twelve minutes in all, far past the
    guard's two minutes.  The opening holds the round's job, renewing the hold as each table
    opens, so another process's scheduler, looking for due jobs as each thread is made, never
    fires it, whether the round's job opened the round (the scheduler's claim), the organiser
    published it (no claim) or the guard itself resumes it after a stop at its first thread; the
    tables are opened once, and the guard is spent at the end."""
    from bot.league.controls import Controls

    leagues, desk, scheduler = season
    other = Scheduler(service.store, owner="other process")
    elsewhere = NoShowDesk(Rounds(leagues, desk, other))
    other.register(ROUND_JOB, elsewhere.fire_round)
    other.register(DEADLINE_JOB, elsewhere.fire_deadline)
    other.register(NUDGE, elsewhere.fire_nudge)
    league = await started(leagues, range(101, 117), rounds=2, days=3, review=how == "published")
    quick, fired, looking = desk.open_thread, [], []

    async def slow_thread(channel_id, name):
        clock.advance(90)
        if not looking:  # the other process looks for due jobs meanwhile (not again from inside its own)
            looking.append(True)
            fired.append(await other.run_due())
            looking.clear()
        return await quick(channel_id, name)

    desk.open_thread = slow_thread
    if how == "published":
        await scheduler.run_due()  # paired, waiting for the review
        opened = await Controls(leagues).publish(await service.store.leagues.league(league.id))
        await leagues_rounds(scheduler).launch(opened)
    elif how == "resumed":
        desk.stop_at_thread = 1  # the first opening stops at its first table
        await scheduler.run_due()
        assert desk.threads == [] and fired == [0]
        fired.clear()
        clock.advance(120)  # the guard fires: it opens the round, slowly
        await scheduler.run_due()
    else:
        await scheduler.run_due()
    assert fired == [0] * 8
    games = await service.store.leagues.league_games(league.id, 1)
    assert [g.status for g in games] == ["playing"] * 8
    sessions = [await service.core.get(g.session_id) for g in games]
    assert sorted(s.row.channel_id for s in sessions) == desk.threads == list(range(7000, 7008))
    assert len([t for t in desk.posts[50] if "round 1 of 2 is open" in t]) == 1
    assert await service.store.jobs.job(ROUND_JOB, str(league.id)) is None
    clock.advance(3600)  # nothing is left for either process to open
    assert await other.run_due() == 0 and len(desk.threads) == 8


async def test_the_organisers_letter_that_a_stop_has_told_again_names_what_it_tells(season, service, clock):
    """The process stops posting who sat round 1 out, after telling the organiser that the table
    they fixed could not be kept; the round's guard tells the letter again, naming what it tells
    as the first did, so that Discord, within its minutes, takes it for the first (it was sent
    anew each time)."""
    _, desk, _ = season
    await stopped_and_resumed(
        season, service, clock, "Fix", range(71, 76), "Not paired in round 1", fixed=[71, 75]
    )
    (letter,) = {t for t in desk.posts[50] if "the table you fixed for round 1 of 2 of **Fix**" in t}
    first, again = desk.told[letter]
    assert first == again and "fixed" in first  # the same, naming it: one message
