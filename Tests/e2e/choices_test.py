#!/usr/bin/env python3
"""A foreign key into a table of 1,000 rows, past the 300 a form lists, in headless Chromium: the
schema's form on a file served --writable (run.sh makes it with --make and serves it).

    choices_test.py --make FILE --config YAML --password-hash '$scrypt$…'
    CELLAR_CHOICES_PASSWORD=… choices_test.py --base-url http://127.0.0.1:8080 --screenshots DIR

Scenarios (each reported on its own; the run fails if any fails):
  suggestions   signed in, /loans/-/new: typing "0042" in the person field fills its <datalist>
                with the matches (option value 42, label "Person 0042"); axe-core on the form,
                light and dark, at 1280 and 390 px: no violation of any impact; screenshots
  choose        the title typed, "Choose…" (a GET of the form's values) shows the page of matches;
                a search there, then a match, comes back to the form with the key set, the title
                kept and the choice named; saved, the row's page
  in-place      editing mode (/loans?editing=1): a row's form opened in place by the script suggests
                matches too
Every scenario also fails on a SEVERE browser console message.

Needs what browser_test.py needs.
"""
from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import Browser, axe_problems, expect, run_scenarios  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

ACCOUNT = "alice"


def make(path: str, config: str, password_hash: str):
    """The file (people: 1,000 rows; loans: a foreign key into them) and its configuration."""
    if os.path.exists(path):
        os.remove(path)
    connection = sqlite3.connect(path)
    connection.executescript("""
        CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE loans(id INTEGER PRIMARY KEY, title TEXT NOT NULL, person_id INTEGER NOT NULL REFERENCES people(id));
        INSERT INTO loans VALUES (1, 'Dune', 3);
    """)
    connection.executemany("INSERT INTO people VALUES (?, ?)", [(i, f"Person {i:04d}") for i in range(1, 1001)])
    connection.commit()
    connection.close()
    with open(config, "w", encoding="utf-8") as file:
        file.write(f'accounts:\n  {ACCOUNT}: {{password: "{password_hash}"}}\n'
                   f"permissions:\n  loans: {{insert: [{ACCOUNT}], update: [{ACCOUNT}]}}\n")


def sign_in(b: Browser, state: dict):
    if state.get("signed-in"):
        return
    b.get("/-/signin?next=/loans/-/new")
    b.driver.find_element(By.ID, "field-account").send_keys(ACCOUNT)
    password = b.driver.find_element(By.ID, "field-password")
    password.send_keys(os.environ["CELLAR_CHOICES_PASSWORD"])
    password.send_keys(Keys.ENTER)
    b.wait(lambda d: d.current_url.endswith("/loans/-/new"), "the sign-in to lead to the form")
    state["signed-in"] = True


def scenario_suggestions(b: Browser, args, state: dict):
    sign_in(b, state)
    b.get("/loans/-/new")
    expect(b.count("select#field-person_id") == 0, "the person field is a search, not a list of 1,000 options")
    field = b.driver.find_element(By.ID, "field-person_id")
    field.send_keys("0042")
    # Focused, the field suggests the first names; typed, the matches of what was typed.
    b.wait(lambda d: b.count('#field-person_id-choices option') == 1 and b.count('#field-person_id-choices option[value="42"]') == 1,
           "the one suggestion for 0042, person 42")
    label = b.js('return document.querySelector(\'#field-person_id-choices option[value="42"]\').label')
    expect(label == "Person 0042", f"the suggestion is labelled {label!r}")
    problems = []
    for viewport in ("desktop", "mobile"):
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            problems += axe_problems(b, f"/loans/-/new {viewport} {scheme}", every_impact=True)
            b.shot(args.screenshots, f"choices-form-{viewport}-{scheme}")
    b.set_view("desktop", "light")
    expect(not problems, "; ".join(problems[:3]))


def scenario_choose(b: Browser, args, state: dict):
    sign_in(b, state)
    b.get("/loans/-/new")
    b.driver.find_element(By.ID, "field-title").send_keys("Earthsea")
    b.driver.find_element(By.CSS_SELECTOR, "button.field-choose").click()
    b.wait(lambda d: "/loans/-/choose?" in d.current_url, "the page of matches")
    search = b.driver.find_element(By.ID, "choose-q")
    search.send_keys("Person 0007")
    search.send_keys(Keys.ENTER)
    b.wait(lambda d: "q=Person" in d.current_url and b.count(".choose-list a") == 1, "one match for Person 0007")
    b.shot(args.screenshots, "choices-page")
    problems = axe_problems(b, "/loans/-/choose", every_impact=True)
    expect(not problems, "; ".join(problems[:3]))
    b.driver.find_element(By.LINK_TEXT, "Person 0007").click()
    b.wait(lambda d: "/loans/-/new?" in d.current_url, "the form again")
    title = b.driver.find_element(By.ID, "field-title").get_attribute("value")
    person = b.driver.find_element(By.ID, "field-person_id").get_attribute("value")
    expect((title, person) == ("Earthsea", "7"), f"the form came back with {(title, person)!r}")
    chosen = b.driver.find_element(By.CSS_SELECTOR, ".field-chosen-title").text
    expect(chosen == "Person 0007", f"the choice is named {chosen!r}")
    b.driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]:not(.field-choose)").click()
    b.wait(lambda d: re.search(r"/loans/[0-9]+$", d.current_url) is not None, "the new row's page")
    expect("Earthsea" in b.driver.find_element(By.TAG_NAME, "main").text, "the new row's page shows its title")


def scenario_in_place(b: Browser, args, state: dict):
    sign_in(b, state)
    b.get("/loans?editing=1")
    b.driver.find_element(By.CSS_SELECTOR, "#row-1 a.editing-edit").click()
    field = b.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#row-1 input#field-person_id"), "row 1's form in place")[0]
    field.clear()
    field.send_keys("0099")
    b.wait(lambda d: b.count("#row-1 datalist option") == 1 and b.count('#row-1 datalist option[value="99"]') == 1,
           "the one suggestion for 0099 in the form opened in place")


SCENARIOS = [("suggestions", scenario_suggestions), ("choose", scenario_choose), ("in-place", scenario_in_place)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--make", metavar="FILE")
    parser.add_argument("--config", metavar="YAML")
    parser.add_argument("--password-hash")
    parser.add_argument("--base-url")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--only", nargs="+", choices=[n for n, _ in SCENARIOS])
    parser.add_argument("--ignore-console", metavar="REGEX")
    parser.add_argument("--timeout", type=float, default=15.0)
    args = parser.parse_args(argv)
    if args.make:
        make(args.make, args.config, args.password_hash)
        return 0
    return run_scenarios(args, SCENARIOS, title="choices_test")


if __name__ == "__main__":
    sys.exit(main())
