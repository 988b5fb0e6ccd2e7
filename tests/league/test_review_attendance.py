"""A round waiting for the organiser's review is paired already: what players ask for it after
that (a bye, a pause) cannot take them out of the drafted tables behind the organiser's back."""

from __future__ import annotations

import pytest

from bot.league.controls import Controls
from bot.league.presence import Attendance
from bot.league.service import LeagueError, LeagueService
from tests.league.test_service import DAY, counter, new_league, open_games


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def round_one_played(leagues, clock, names):
    """A reviewed Swiss league of ``names`` whose first round is over (its second not drawn yet)."""
    league = await new_league(
        leagues, name="Reviewed", game="nim", format="swiss", group_size=2, rounds=4, days=1, review=True
    )
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    await open_games(leagues, await leagues.open_round(league.id, 1), names, counter(5000))
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    return league


async def drafted(leagues, clock, names):
    league = await round_one_played(leagues, clock, names)
    league = await leagues.store.leagues.league(league.id)
    draft = await Controls(leagues).draft_round(league, 2)
    assert draft is not None
    return league, draft


async def test_a_bye_for_a_round_under_review_is_refused_and_the_player_plays_once(leagues, service, clock):
    store = service.store
    names = {uid: f"n{uid}" for uid in (701, 702, 703, 704)}
    league, draft = await drafted(leagues, clock, names)
    desk = Attendance(leagues)
    player = draft.groups[0][0]
    with pytest.raises(
        LeagueError, match="round 2 of Reviewed is paired already and waits for the organiser"
    ):
        await desk.ask_bye(league, player, 2)
    with pytest.raises(LeagueError, match="a bye in it can no longer be asked for or taken back"):
        await desk.ask_bye(league, player, 2, cancel=True)
    assert await store.attendance.requests(league.id, player) == {}
    assert "You have a bye in round 3 of Reviewed" in await desk.ask_bye(league, player, 3)
    opened = await Controls(leagues).publish(await store.leagues.league(league.id))
    assert sorted(u for g in opened.games for u in g.players) == sorted(names)  # each player once
    assert [b for b in await store.leagues.league_byes(league.id) if b[0] == 2] == []


async def test_a_pause_asked_while_a_round_waits_for_review_starts_after_it(leagues, service, clock):
    store = service.store
    names = {uid: f"n{uid}" for uid in (711, 712, 713, 714)}
    league, draft = await drafted(leagues, clock, names)
    desk = Attendance(leagues)
    player = draft.groups[1][1]
    said = await desk.pause(league, player, 1)
    assert "You are paused for round 3 of Reviewed" in said, said
    assert await store.attendance.requests(league.id, player) == {(3, player): "pause"}
    # The store refuses the drafted round too, whoever asks it, and keeps its pause.
    assert await store.attendance.request(league.id, player, [2], "bye") == []
    assert await store.attendance.withdraw(league.id, player, "pause", [2]) == []
    opened = await Controls(leagues).publish(await store.leagues.league(league.id))
    assert sorted(u for g in opened.games for u in g.players) == sorted(names)
    assert [b for b in await store.leagues.league_byes(league.id) if b[0] == 2] == []


async def test_time_away_begun_after_the_review_was_drawn_does_not_pair_a_player_twice(
    leagues, service, clock
):
    """The drafted tables seat the player: going away before Publish leaves them at their table
    (the review is the organiser's word), not at the table and on a pause at once."""
    from dataclasses import replace

    store = service.store
    names = {uid: f"n{uid}" for uid in (721, 722, 723, 724)}
    league, draft = await drafted(leagues, clock, names)
    player = draft.groups[0][1]
    person = await store.people.person(player)
    now = clock.time()
    await store.people.save_person(replace(person, away_since=now, away_until=now + 3 * DAY))
    opened = await Controls(leagues).publish(await store.leagues.league(league.id))
    assert sorted(u for g in opened.games for u in g.players) == sorted(names)
    assert [b for b in await store.leagues.league_byes(league.id) if b[0] == 2] == []


async def test_time_away_over_when_the_review_is_published_still_counts_for_its_round(
    leagues, service, clock
):
    """Away when the round was drawn, the player is in no table of it; back before Publish, they
    are still not paired in it, and it shows as a round paused (0 points), not as nothing."""
    from dataclasses import replace

    store = service.store
    names = {uid: f"n{uid}" for uid in (731, 732, 733, 734, 735)}
    league = await round_one_played(leagues, clock, names)
    now = clock.time()
    person = await store.people.person(735)
    await store.people.save_person(replace(person, away_since=now - 60, away_until=now + 3600))
    league = await store.leagues.league(league.id)
    draft = await Controls(leagues).draft_round(league, 2)
    assert 735 not in {u for g in draft.groups for u in g} | set(draft.byes)
    clock.advance(2 * 3600)  # back before the organiser publishes
    opened = await Controls(leagues).publish(await store.leagues.league(league.id))
    seated = [u for g in opened.games for u in g.players]
    assert 735 not in seated
    assert (2, 735, 0.0) in await store.leagues.league_byes(league.id)
    assert (await store.attendance.bye_kinds(league.id))[(2, 735)] == "pause"


async def test_a_player_dropped_while_a_round_waits_for_review_is_taken_out_of_it(leagues, service, clock):
    """A player dropped after the round was drawn is paired no more: the review says so and
    seats their opponent with the player who had the bye, and publishing opens no walkover."""
    store = service.store
    names = {uid: f"n{uid}" for uid in (731, 732, 733, 734, 735)}
    league, draft = await drafted(leagues, clock, names)
    assert len(draft.groups) == 2 and len(draft.byes) == 1
    (had_bye,) = draft.byes
    opponent, gone = draft.groups[0]
    await leagues.drop(league, gone)
    league = await store.leagues.league(league.id)
    controls = Controls(leagues)
    review = await controls.draft(league)
    assert review.dropped == [gone]
    assert sorted(map(sorted, review.groups)) == sorted(
        [sorted([opponent, had_bye]), sorted(draft.groups[1])]
    )
    assert review.byes == []
    text = await controls.tables_text(league, review)
    assert f"Dropped since this round was drawn, so not paired in it: n{gone}" in text
    assert f"n{opponent}" in text and "Bye:" not in text
    with pytest.raises(LeagueError, match=f"<@{gone}> was dropped from Reviewed"):
        await controls.swap(league, gone, had_bye)
    opened = await controls.publish(league)
    assert sorted(u for g in opened.games for u in g.players) == sorted(set(names) - {gone})
    assert all(len(g.players) == 2 for g in opened.games)
    assert [b for b in await store.leagues.league_byes(league.id) if b[0] == 2] == []


async def test_a_lone_player_left_by_a_drop_in_a_reviewed_round_has_the_bye_not_a_walkover(
    leagues, service, clock
):
    store = service.store
    names = {uid: f"n{uid}" for uid in (741, 742, 743, 744)}
    league, draft = await drafted(leagues, clock, names)
    opponent, gone = draft.groups[0]
    await leagues.drop(league, gone)
    opened = await Controls(leagues).publish(await store.leagues.league(league.id))
    assert [sorted(g.players) for g in opened.games] == [sorted(draft.groups[1])]
    assert [(r, u) for r, u, _ in await store.leagues.league_byes(league.id) if r == 2] == [(2, opponent)]


async def test_the_review_says_when_a_fixed_table_could_not_be_kept(leagues, service, clock):
    """A player of a fixed table who is away when the round is drawn is not paired: the review
    tells the organiser the fixed table was not kept, before they publish."""
    from dataclasses import replace

    store = service.store
    names = {uid: f"n{uid}" for uid in (751, 752, 753, 754, 755)}
    league = await new_league(
        leagues, name="Fixed", game="nim", format="swiss", group_size=2, rounds=3, days=1, review=True
    )
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    controls = Controls(leagues)
    await controls.fix(league, [751, 752])
    person = await store.people.person(752)
    now = clock.time()
    await store.people.save_person(replace(person, away_since=now - 60, away_until=now + 3 * DAY))
    draft = await controls.draft_round(league, 1)
    assert draft is not None and 752 not in {u for g in draft.groups for u in g}
    text = await controls.tables_text(league, draft)
    assert (
        "A table you fixed could not be kept, as one of its players is not paired in this round: n751, n752"
        in text
    )
