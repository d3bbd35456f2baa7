#!/usr/bin/env python3
"""Sign-in and a form with mistakes in headless Chromium, on a server started with --development
(it has the demo account; run.sh reads its password from the server's standard error).

    CELLAR_DEMO_PASSWORD=… signin_test.py --base-url http://127.0.0.1:8080 --screenshots DIR

Scenarios (each reported on its own; the run fails if any fails):
  signin        keyboard only, at 1280 and 390 px: /-/signin?next=/tasting-notes, a wrong password
                first (401: the summary with role=alert takes the focus and links to the password
                field, which is aria-invalid with the message tied by aria-describedby; the account
                name kept, the password not), then from the summary's link to the field, the right
                password, and the page `next` named, signed in as demo (axe-core on it, light
                and dark: no violation)
  signin-axe    axe-core on the sign-in page, and on it after a wrong password, light and dark, at
                1280 and 390 px: no violation of any impact; screenshots of each
  form-axe      the tasting-note form sent empty by keyboard: the summary announced and focused, the
                values kept; axe-core light and dark at 1280 and 390 px: no violation of any impact;
                screenshots of each
Every scenario also fails on a SEVERE browser console message (the 401 and 422 are expected).

Needs what browser_test.py needs.
"""
from __future__ import annotations

import argparse
import os
import sys
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import (  # noqa: E402
    VIEWPORTS, Browser, drop_grouped_description_items, expect, focused, form_errors, keys, run_scenarios,
    submit_by_keyboard, summary_takes_focus, tab_to)
from selenium.webdriver.common.keys import Keys  # noqa: E402

SIGNIN = "/-/signin"
FAILURE = "That account name and password do not match."


def axe_violations(b: Browser, label: str) -> list[str]:
    """axe-core on the page the browser shows: every violation, whatever its impact, as lines."""
    from axe_selenium_python import Axe
    Axe(b.driver).inject()
    results = b.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run().then((r) => done(r), (e) => done({error: String(e && e.stack || e)}));")
    if results.get("error"):
        return [f"{label}: axe-core failed: {results['error'][:300]}"]
    lines = []
    for v in drop_grouped_description_items(b, results.get("violations", [])):
        targets = [" ".join(map(str, n.get("target", []))) for n in v.get("nodes", [])]
        lines.append(f"{label} {v.get('impact')}: {v['id']} — {v.get('help')} ({len(targets)} nodes: {targets[:3]})")
    print(f"    {label}: {len(lines)} violation(s), {len(results.get('passes', []))} rules passed")
    for line in lines:
        print("      " + line)
    return lines


def sign_in_by_keyboard(b: Browser, account: str, password: str, what: str):
    tab_to(b, "field-account")
    keys(b, account)
    keys(b, Keys.TAB)
    expect(focused(b) == "field-password", f"Tab from the account went to {focused(b)!r}")
    keys(b, password)
    submit_by_keyboard(b, what)


def scenario_signin(b: Browser, args, state: dict):
    bad = []
    b.expected_401.add(b.url(SIGNIN))
    for viewport in VIEWPORTS:
        b.driver.delete_all_cookies()
        b.set_view(viewport, "light")
        b.get(SIGNIN + "?next=/tasting-notes")
        expect(b.count("main form.form li.cell") == 2, "the sign-in form is not two field cells")
        sign_in_by_keyboard(b, "demo", "wrong-" + args.password, "the wrong password to come back")
        summary_takes_focus(b)
        errors = form_errors(b)
        expect(errors["role"] == "alert" and errors["focused"], f"the summary is not an alert with the focus: {errors}")
        expect(errors["title"].startswith("Error: "), f"the title does not start with 'Error: ': {errors['title']!r}")
        expect(errors["links"] == [["#field-password", FAILURE]], f"summary links: {errors['links']}")
        expect(errors["invalid"] == [["field-password", "Error: " + FAILURE]], f"invalid fields: {errors['invalid']}")
        kept = b.js("return [document.getElementById('field-account').value, document.getElementById('field-password').value]")
        expect(kept == ["demo", ""], f"the account name is not kept, or the password is: {kept}")
        b.shot(args.screenshots, f"signin-wrong-{viewport}-light")
        # From the summary's link to the password, as a keyboard user goes.
        keys(b, Keys.TAB)
        expect(b.js("return document.activeElement.getAttribute('href')") == "#field-password", "Tab from the summary is not its link")
        keys(b, Keys.ENTER)
        tab_to(b, "field-password")
        keys(b, args.password)
        submit_by_keyboard(b, "the sign-in to go to next")
        expect(urlsplit(b.driver.current_url).path == "/tasting-notes", f"not sent to next: {b.driver.current_url}")
        session = b.js("const s = document.querySelector('.session'); return s ? s.textContent : ''")
        expect("demo" in session, f"the page does not say who is signed in: {session!r}")
        b.shot(args.screenshots, f"signin-done-{viewport}-light")
        # The page a signed-in person sees, with the sign-out form, in both schemes.
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            bad += axe_violations(b, f"/tasting-notes signed in [{viewport} {scheme}]")
    b.driver.delete_all_cookies()
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe violation(s) on the signed-in page")


def scenario_signin_axe(b: Browser, args, state: dict):
    bad = []
    b.expected_401.add(b.url(SIGNIN))
    for viewport in VIEWPORTS:
        for scheme in ("light", "dark"):
            b.driver.delete_all_cookies()
            b.set_view(viewport, scheme)
            b.get(SIGNIN)
            # Photographed before axe-core runs: its contrast checks scroll the page.
            b.shot(args.screenshots, f"signin-{viewport}-{scheme}")
            bad += axe_violations(b, f"{SIGNIN} [{viewport} {scheme}]")
            sign_in_by_keyboard(b, "demo", "wrong-" + args.password, "the wrong password to come back")
            summary_takes_focus(b)
            b.shot(args.screenshots, f"signin-wrong-{viewport}-{scheme}")
            bad += axe_violations(b, f"{SIGNIN} wrong password [{viewport} {scheme}]")
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe violation(s)")


def scenario_form_axe(b: Browser, args, state: dict):
    bad = []
    b.expected_422.add(b.url(args.form_path))
    for viewport in VIEWPORTS:
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            b.get(args.form_path)
            tab_to(b, "field-notes")
            keys(b, "Kept <i>as typed</i>")
            submit_by_keyboard(b, "the form with mistakes to come back")
            summary_takes_focus(b)
            errors = form_errors(b)
            expect(errors["role"] == "alert" and errors["focused"], f"the summary is not an alert with the focus: {errors}")
            expect([href for href, _ in errors["links"]] == ["#field-wine", "#field-rating", "#field-tasted"], f"summary links: {errors['links']}")
            expect(b.js("return document.getElementById('field-notes').value") == "Kept <i>as typed</i>", "the note was not kept")
            b.shot(args.screenshots, f"form-errors-{viewport}-{scheme}")
            bad += axe_violations(b, f"{args.form_path} with errors [{viewport} {scheme}]")
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe violation(s)")


SCENARIOS = [("signin", scenario_signin), ("signin-axe", scenario_signin_axe), ("form-axe", scenario_form_axe)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--form-path", default="/tasting-notes/new")
    parser.add_argument("--only", nargs="+", choices=[n for n, _ in SCENARIOS])
    parser.add_argument("--ignore-console", metavar="REGEX")
    parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args(argv)
    # From the environment, not the command line, where `ps` would show it.
    args.password = os.environ.get("CELLAR_DEMO_PASSWORD", "")
    if not args.password:
        print("signin_test: CELLAR_DEMO_PASSWORD is not set (the demo account's password, printed by serve --development)")
        return 2
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    return run_scenarios(args, SCENARIOS, title="signin_test")


if __name__ == "__main__":
    sys.exit(main())
