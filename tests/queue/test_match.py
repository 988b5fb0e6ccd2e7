"""The queue's matcher, pure: hand-checked cases, and properties over many generated queues
(hypothesis, a fixed profile) that no table breaks anyone's wishes, avoid list or the gate."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.queue.match import ANY, Table, Want, agree, can_sit, form


def want(uid: int, counts, *, game="guacamole", pace=ANY, computers=0, rated=ANY, avoid=(), since=None):
    return Want(
        uid,
        game,
        frozenset(counts),
        pace,
        computers,
        rated,
        frozenset(avoid),
        float(uid if since is None else since),
        uid,
    )


def seated(tables) -> list[set[int]]:
    return [set(t.user_ids) for t in tables]


def test_the_longest_waiting_person_is_served_first():
    # 1 and 2 avoid each other; 3 could sit with either: 1 waited longest, so 3 sits with 1.
    queue = [want(1, {2}, avoid={2}), want(2, {2}), want(3, {2})]
    assert seated(form(queue)) == [{1, 3}]


def test_avoiding_works_both_ways():
    assert form([want(1, {2}), want(2, {2}, avoid={1})]) == []
    assert form([want(1, {2}, avoid={2}), want(2, {2})]) == []


def test_player_counts_must_meet_and_computers_fill_only_what_everyone_allows():
    assert form([want(1, {3}), want(2, {3})]) == []  # a third is missing, no computer allowed
    (table,) = form([want(1, {3}, computers=1), want(2, {3, 4}, computers=2)])
    assert table.size == 3 and table.computers == 1
    assert form([want(1, {4}, computers=1), want(2, {4}, computers=2)]) == []  # 2 computers: 1 refuses


def test_a_group_takes_the_longest_prefix_that_is_a_table():
    # 1 and 2 want 4; 3 would make three of four, but nobody allows a computer: 1, 2 and 3 wait.
    assert form([want(1, {3, 4}), want(2, {4}), want(3, {3, 4})]) == []
    # With 4 (who accepts 4) the four sit together.
    (table,) = form([want(1, {3, 4}), want(2, {4}), want(3, {3, 4}), want(4, {2, 3, 4})])
    assert table.user_ids == (1, 2, 3, 4) and table.size == 4


def test_pace_and_rated_agree_any_gives_way():
    assert form([want(1, {2}, pace="live"), want(2, {2}, pace="daily")]) == []
    (table,) = form([want(1, {2}, pace="live"), want(2, {2})])
    assert table.pace == "live" and table.rated == ANY
    assert form([want(1, {2}, rated="rated"), want(2, {2}, rated="unrated")]) == []
    (table,) = form([want(1, {2}), want(2, {2}, rated="unrated")])
    assert table.rated == "unrated"


def test_other_games_and_the_gate_keep_people_apart():
    assert form([want(1, {2}), want(2, {2}, game="pachakuna")]) == []
    assert seated(form([want(1, {2}), want(2, {2}), want(3, {2})], lambda w: w.user_id != 1)) == [{2, 3}]


def test_people_come_before_computers_and_one_person_is_no_table():
    (table,) = form([want(1, {2, 3, 4}, computers=2), want(2, {2, 3, 4}, computers=2)])
    assert table.size == 2 and table.computers == 0
    assert form([want(1, {2, 3}, computers=2)]) == []


def test_a_pair_is_not_blocked_by_someone_who_wants_another_size():
    # 2 accepts 2 or 3; 4 wants 3 (came first); 5 wants 2: 2 and 5 sit at a table of two.
    queue = [
        want(2, {2, 3}, game="pachakuna"),
        want(4, {3}, game="pachakuna"),
        want(5, {2}, game="pachakuna"),
    ]
    assert seated(form(queue)) == [{2, 5}]


def test_someone_who_came_earlier_and_agrees_with_nobody_does_not_block_a_table():
    # 1 takes any pace; 2 (live) came before 3 and 4 (daily): 1, 3 and 4 sit at a daily table.
    queue = [want(1, {3}), want(2, {3}, pace="live"), want(3, {3}, pace="daily"), want(4, {3}, pace="daily")]
    (table,) = form(queue)
    assert table.user_ids == (1, 3, 4) and table.pace == "daily"
    # 2 avoids 3 and 4, who came after: 1, 3 and 4 still sit together, and 2 waits.
    queue = [want(1, {3}), want(2, {3}, avoid={3, 4}), want(3, {3}), want(4, {3})]
    assert seated(form(queue)) == [{1, 3, 4}]
    # Rated: 2 wants rated, 3 and 4 unrated; 1 either.
    queue = [
        want(1, {3}),
        want(2, {3}, rated="rated"),
        want(3, {3}, rated="unrated"),
        want(4, {3}, rated="unrated"),
    ]
    assert seated(form(queue)) == [{1, 3, 4}]


def test_can_sit_names_what_is_wrong():
    a, b = want(1, {2}, avoid={2}), want(2, {3})
    wrong = can_sit(Table("guacamole", (a, b), 2, ANY, ANY))
    assert "2 does not accept a table of 2" in wrong and "1 and 2 avoid each other" in wrong


# ---------------------------------------------------------------------------- properties

USERS = st.integers(1, 12)
WANTS = st.builds(
    lambda uid, game, counts, pace, computers, rated, avoid, since: want(
        uid,
        counts,
        game=game,
        pace=pace,
        computers=computers,
        rated=rated,
        avoid=avoid - {uid},
        since=since,
    ),
    USERS,
    st.sampled_from(["guacamole", "pachakuna"]),
    st.sets(st.integers(2, 6), min_size=1, max_size=4),
    st.sampled_from(["live", "daily", ANY]),
    st.integers(0, 3),
    st.sampled_from(["rated", "unrated", ANY]),
    st.sets(USERS, max_size=4),
    st.integers(0, 50),
)
QUEUES = st.lists(WANTS, max_size=12, unique_by=lambda w: w.user_id)
PROFILE = settings(max_examples=400, deadline=None, derandomize=True, database=None)


@PROFILE
@given(QUEUES, st.sets(USERS, max_size=3))
def test_no_table_breaks_a_wish_an_avoid_list_or_the_gate(queue, refused):
    def gate(w: Want) -> bool:
        return w.user_id not in refused

    tables = form(queue, gate)
    everyone = [uid for t in tables for uid in t.user_ids]
    assert len(everyone) == len(set(everyone))  # nobody at two tables
    for table in tables:
        assert can_sit(table, gate) == []
        assert table.user_ids == tuple(
            sorted(table.user_ids, key=lambda u: next(w.place for w in queue if w.user_id == u))
        )


@PROFILE
@given(QUEUES)
def test_what_is_left_cannot_form_a_table_with_the_longest_waiting(queue):
    """After forming, the longest-waiting person left has no partner left who agrees on
    everything for a table of two (the matcher never leaves an obvious pair behind)."""
    tables = form(queue)
    taken = {u for t in tables for u in t.user_ids}
    left = sorted((w for w in queue if w.user_id not in taken), key=lambda w: w.place)
    for a in left[:1]:
        for b in left[1:]:
            pair = form([a, b])
            assert pair == [], (a, b)


@PROFILE
@given(QUEUES)
def test_the_same_queue_in_any_order_forms_the_same_tables(queue):
    assert form(queue) == form(list(reversed(queue)))


@PROFILE
@given(QUEUES)
def test_nobody_left_waiting_could_fill_a_table_together(queue):
    """After forming, no people left waiting could fill a table of their own number on their own
    (no computers): every one of them accepts that size, and they agree on game, pace, rated and
    avoid lists."""
    tables = form(queue)
    taken = {u for t in tables for u in t.user_ids}
    left = [w for w in queue if w.user_id not in taken]
    for n in range(2, 7):
        for group in combinations(left, n):
            people = tuple(sorted(group, key=lambda w: w.place))
            pace = rated = ANY
            for w in people:
                pace, rated = agree(pace, w.pace) or w.pace, agree(rated, w.rated) or w.rated
            table = Table(people[0].game, people, n, pace, rated, people[0].options)
            assert can_sit(table) != [], [w.user_id for w in people]
