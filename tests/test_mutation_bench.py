"""The mutation bench's judgement of which mutants only change message text (bench/mutation.py)."""

from __future__ import annotations

import pytest

from bench.mutation import text_only

ORIG = """
def f(n, seat):
    if n > 2:
        raise IllegalMove(f"buying costs {plural(n, 'shell')} and you have {n}")
    return Event(f"{seat} cut {plural(n, 'patch', 'patches')} off", kind="cut")
"""


@pytest.mark.parametrize(
    "old,new",
    [
        ("buying costs", "XXbuying costsXX"),  # a phrase of the message
        ("'shell'", "'XXshellXX'"),  # the noun counted by plural()
        ("'shell'", "'SHELL'"),
        ("'shell'", "None"),
        ("'patch', 'patches'", "'patch'"),  # the plural form dropped
        ("'patch', 'patches'", "'XXpatchXX', 'patches'"),
    ],
)
def test_message_wording_is_text(old, new):
    assert ORIG.count(old) == 1
    assert text_only(ORIG, ORIG.replace(old, new))


@pytest.mark.parametrize(
    "old,new",
    [
        ('kind="cut"', 'kind="CUT"'),  # an event's kind is read by code
        ("plural(n, 'shell')", "plural(None, 'shell')"),  # the count itself
        ("plural(n, 'shell')", "plural('shell')"),  # the count dropped
        ("n > 2", "n >= 2"),
        ("raise IllegalMove", "return IllegalMove"),
    ],
)
def test_rule_changes_are_not_text(old, new):
    assert ORIG.count(old) == 1
    assert not text_only(ORIG, ORIG.replace(old, new))
