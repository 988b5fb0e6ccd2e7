"""A round waiting for the organiser's review is chased: the organiser is reminded (as their
``/me notify`` asks) when it has waited :data:`REVIEW_FIRST` seconds, and again every
:data:`REVIEW_AGAIN` seconds while it waits, until it is published; ``/league round`` says that
it waits and since when.  The rounds run with the real scheduler; Discord is the in-memory
:class:`Desk` of the restart tests (the organiser refuses direct messages there, so every notice
is a post naming them in the league's channel)."""

from __future__ import annotations

from bot.league.controls import Controls
from bot.league.review import REVIEW_AGAIN, REVIEW_FIRST
from tests.league.test_restarts import leagues_rounds, season  # noqa: F401 (the fixture)
from tests.league.test_service import new_league

WAITS = "round 1 of **Waits** is paired and waits for your review"
STILL = "round 1 of **Waits** has waited for your review since"


async def test_a_round_left_waiting_for_review_reminds_the_organiser_until_it_is_published(
    season,  # noqa: F811
    service,
    clock,
):
    leagues, desk, scheduler = season
    store = service.store
    rounds = leagues_rounds(scheduler)
    league = await new_league(
        leagues, name="Waits", game="nim", format="swiss", group_size=2, rounds=2, days=5, review=True
    )
    for uid in range(11, 15):
        await leagues.join(league, uid, f"P{uid}")
    league, _ = await leagues.start(league)
    drafted = int(clock.time())
    await scheduler.run_due()  # round 1 is due: paired and kept for review
    posts = desk.posts[50]
    assert len([p for p in posts if WAITS in p]) == 1 and not [p for p in posts if STILL in p]
    league = await store.leagues.league(league.id)
    text = await rounds.round_text(league)
    assert f"Round 1 is paired and has waited for the organiser's review since <t:{drafted}:f>." in text, text

    clock.advance(REVIEW_FIRST - 1)
    await scheduler.run_due()
    assert not [p for p in posts if STILL in p]  # not yet
    clock.advance(1)
    await scheduler.run_due()
    (first,) = [p for p in posts if STILL in p]
    assert first == (
        f"<@1>: round 1 of **Waits** has waited for your review since <t:{drafted}:f>, and its players wait"
        " with it: publish it with /league organiser review."
    )
    clock.advance(REVIEW_AGAIN - 1)
    await scheduler.run_due()
    assert len([p for p in posts if STILL in p]) == 1  # at its interval, no sooner
    clock.advance(1)
    await scheduler.run_due()
    assert len([p for p in posts if STILL in p]) == 2

    opened = await Controls(leagues).publish(await store.leagues.league(league.id))
    await rounds.launch(opened)
    assert "waited for the organiser's review" not in await rounds.round_text(
        await store.leagues.league(league.id)
    )
    for _ in range(3):  # published: no reminder any more (round 1's five days run meanwhile)
        clock.advance(REVIEW_AGAIN)
        await scheduler.run_due()
    assert len([p for p in posts if STILL in p]) == 2
    assert (await store.leagues.league(league.id)).current_round == 1
