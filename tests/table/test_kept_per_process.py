"""What the tests keep once per test process is what they would make afresh: a whole game played
by the computer players (tests/support/played.py), a copy of its own for each test, and the web
pages' templates compiled (tests/table/test_web_pages.py's ``CompiledOnce``); and the browser
tests share one Chromium per process."""

from __future__ import annotations

import dataclasses

import jinja2

import engines
from bench import history
from bot.web.pages import environment
from tests.support.played import whole_game
from tests.table.test_web_pages import CompiledOnce, pages_of


def test_a_kept_game_is_the_game_played_afresh_and_each_call_has_its_own_copy():
    module = engines.get("guanga").load()
    fresh_played, fresh_final = history.whole_game("guanga", 2, 5)
    played, final = whole_game("guanga", 2, 5)
    assert played == fresh_played and module.to_dict(final) == module.to_dict(fresh_final)
    # What one test does to its copy, the next never sees.
    played.clear()
    for field in dataclasses.fields(final):
        setattr(final, field.name, None)
    again, final_again = whole_game("guanga", 2, 5)
    assert again == fresh_played and final_again is not final
    assert module.to_dict(final_again) == module.to_dict(fresh_final)
    # Other arguments are other games; a stop ends the game there.
    apprentice = {"mode": "apprentice"}
    assert (
        whole_game("guanga", 2, 5, options=apprentice)[0]
        == history.whole_game("guanga", 2, 5, options=apprentice)[0]
    )
    assert whole_game("guanga", 2, 6)[0] == history.whole_game("guanga", 2, 6)[0] != fresh_played
    assert whole_game("guanga", 2, 5, limit=10)[0] == fresh_played[:10]
    assert len(whole_game("guanga", 2, 5, stop=lambda played, before, after: len(played) == 3)[0]) == 3


def counting(env: jinja2.Environment) -> list[str | None]:
    """The names of the templates ``env`` compiles from now on."""
    compiled: list[str | None] = []
    compile_source = env.compile

    def compile(source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return compile_source(source, name, filename, raw, defer_init)

    env.compile = compile  # type: ignore[method-assign]
    return compiled


async def test_the_pages_templates_are_compiled_once_per_process(service):
    pages_of(service).env.get_template("game.html")
    again = pages_of(service)
    compiled = counting(again.env)
    kept = again.env.get_template("game.html")
    assert compiled == []
    fresh = environment().get_template("game.html")
    assert kept.root_render_func.__code__.co_code == fresh.root_render_func.__code__.co_code


def test_a_template_whose_source_changed_is_compiled_again():
    cache = CompiledOnce()

    def env(source: str) -> jinja2.Environment:
        return jinja2.Environment(loader=jinja2.DictLoader({"t.html": source}), bytecode_cache=cache)

    assert env("one {{ x }}").get_template("t.html").render(x=1) == "one 1"
    same = env("one {{ x }}")
    compiled = counting(same)
    assert same.get_template("t.html").render(x=3) == "one 3" and compiled == []
    changed = env("two {{ x }}")
    compiled = counting(changed)
    assert changed.get_template("t.html").render(x=2) == "two 2" and compiled == ["t.html"]


def test_one_chromium_serves_every_browser_test_of_a_process():
    """The browser tests of tests/web and tests/e2e/test_web.py take the same ``chromium`` fixture,
    tests/conftest.py's, whose Chromium is started once per test process: neither place declares
    one of its own (each declaration was a Chromium of its own in the same process)."""
    import tests.conftest as everyone
    import tests.e2e.test_web as end_to_end
    import tests.web.conftest as pages

    for module in (pages, end_to_end):
        for fixture in ("shared_chromium", "chromium"):
            assert not hasattr(module, fixture), (module.__name__, fixture)
    assert everyone.shared_chromium and everyone.chromium
