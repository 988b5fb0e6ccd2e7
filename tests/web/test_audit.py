"""The pages' accessibility audit (``axe_violations``, tests/web/conftest.py) finds what axe-core
finds as axe-playwright-python runs it, though it brings back only the violations: a page with
faults is not passed for want of the results the tests never read."""

from __future__ import annotations

from tests.web.conftest import BROWSER_TESTS, axe_violations

pytestmark = BROWSER_TESTS

FAULTY = """<!doctype html><html><head><title>Faults</title></head><body><main>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button></button>
<p style="color:#777;background:#888">Low contrast</p>
</main></body></html>"""

CLEAN = """<!doctype html><html lang="en"><head><title>Clean</title></head><body><main>
<h1>Clean</h1><p>Nothing wrong here.</p></main></body></html>"""


async def test_the_audit_finds_axe_cores_violations_and_brings_back_only_them(chromium):
    from axe_playwright_python.async_playwright import Axe

    page = await (await chromium.new_context()).new_page()
    await page.set_content(FAULTY)
    found = await axe_violations(page)
    ids = sorted(v["id"] for v in found)
    assert {"button-name", "color-contrast", "html-has-lang", "image-alt"} <= set(ids), ids
    assert all(v["nodes"] and v["impact"] and v["help"] for v in found), found
    # The same violations as the package's own run, which brings back every result.
    whole = (await Axe().run(page)).response
    assert sorted(v["id"] for v in whole["violations"]) == ids
    assert whole["passes"] or whole["inapplicable"]  # what the audit leaves in the browser
    await page.set_content(CLEAN)
    assert await axe_violations(page) == []
