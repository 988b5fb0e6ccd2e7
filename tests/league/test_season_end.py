"""A season's end post: the champion, the final standings (picture, then text) and, when a bracket
crowned the champion, that bracket (picture, then text)."""

from __future__ import annotations

from tests.league.test_restarts import season  # noqa: F401 - the fixture
from tests.league.test_service import DAY, new_league


async def test_a_single_elimination_season_ends_with_its_bracket(season, service, clock):  # noqa: F811
    """A knockout's champion is the bracket's winner, not the top of the points: the end of the
    season shows the finished bracket, as it does after a Swiss league's final stage; it showed
    only the standings by points."""
    leagues, desk, scheduler = season
    league = await new_league(
        leagues, name="Cup", game="pachakuna", format="elimination", group_size=2, days=1
    )
    for uid in (11, 12, 13, 14):
        await leagues.join(league, uid, f"P{uid}")
    league, _ = await leagues.start(league)
    await scheduler.run_due()
    for _ in range(2):
        clock.advance(DAY)
        await scheduler.run_due()
        await scheduler.run_due()  # the next round's job, due at this deadline
    ended = await service.store.leagues.league(league.id)
    assert ended.status == "finished" and ended.champion_id in (11, 12, 13, 14)
    posts = desk.posts[50]
    crown = next(i for i, text in enumerate(posts) if "is over. Champion" in text)
    after = posts[crown:]
    assert any(text == "**Cup: bracket, finished**" for text in after), after
    (words,) = [text for text in after if text.startswith("**Cup: bracket, finished**\nRound 1: ")]
    assert f": P{ended.champion_id} won" in words.splitlines()[-1], words
