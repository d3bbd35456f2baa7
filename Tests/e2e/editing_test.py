#!/usr/bin/env python3
"""Editing mode in Chromium, on the showcase's /to-drink (anyone may edit it):

  editing-live    two browsers: one in editing mode inserts a bottle, edits it in place (Enter
                  saves), moves it up by the keyboard (Alt+ArrowUp), deletes it and undoes the
                  delete; the other, on the list as it is, sees each change without a reload.
  editing-keys    Escape closes a row's form; the keyboard alone reaches every control.
  editing-axe     axe-core on editing mode, a row's form open, light and dark: no violations.
  editing-shots   screenshots of editing mode at 1280 and 390 px, light and dark.

  editing_test.py --base-url http://127.0.0.1:PORT [--screenshots DIR]
"""
import argparse
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_test import VIEWPORTS, Browser, axe_problems, expect, run_scenarios

LIST = "/to-drink"
ROWS = "ul.rows > li.cell"


def titles(b: Browser) -> list[str]:
    return b.js("return Array.from(document.querySelectorAll('ul.rows > li.cell .cell-title')).map((e) => e.textContent)")


def row_of(b: Browser, title: str):
    for row in b.driver.find_elements(By.CSS_SELECTOR, ROWS):
        if row.find_elements(By.CSS_SELECTOR, ".cell-title") and row.find_element(By.CSS_SELECTOR, ".cell-title").text == title:
            return row
    raise AssertionError(f"no row {title!r}")


def scenario_live(b: Browser, args, state: dict):
    viewer = Browser(args.base_url, args.timeout, None)
    try:
        viewer.get(LIST)
        time.sleep(1.0)  # the event stream opens
        wine = f"E2E Riesling {int(time.time()) % 100000}"
        b.get(LIST + "?editing=1&_insert=0")
        field = b.driver.find_element(By.ID, "field-wine")
        expect(b.driver.switch_to.active_element == field, "the open insert form does not have the focus")
        field.send_keys(wine)
        b.driver.find_element(By.CSS_SELECTOR, ".editing-insert button[type=submit]").click()
        b.wait(lambda d: "_insert" not in d.current_url, "the insert to come back to the list")
        viewer.wait(lambda d: wine in titles(viewer), "the inserted bottle in the other browser")

        row = row_of(b, wine)
        row.find_element(By.CSS_SELECTOR, ".editing-edit").click()
        field = b.wait(lambda d: d.find_element(By.ID, "field-wine"), "the row's form")
        field.clear()
        field.send_keys(wine + " (edited)" + Keys.ENTER)
        b.wait(lambda d: "_edit" not in d.current_url, "Enter to save the row")
        viewer.wait(lambda d: wine + " (edited)" in titles(viewer), "the edit in the other browser")
        wine += " (edited)"

        before = titles(b).index(wine)
        row_of(b, wine).find_element(By.CSS_SELECTOR, "button.editing-move[value=up]").send_keys(Keys.ALT, Keys.ARROW_UP)
        b.wait(lambda d: wine in titles(b) and titles(b).index(wine) == before - 1, "Alt+ArrowUp to move the row up")
        focused = b.driver.switch_to.active_element
        expect(focused.tag_name == "button" and row_of(b, wine).get_attribute("id") == b.js("return arguments[0].closest('li').id", focused),
               "the focus did not come back to the moved row")
        viewer.wait(lambda d: wine in titles(viewer) and titles(viewer).index(wine) == before - 1, "the move in the other browser")

        row_of(b, wine).find_element(By.CSS_SELECTOR, "button.editing-delete").click()
        undo = b.wait(lambda d: d.find_element(By.CSS_SELECTOR, ".editing-undo button"), "the Undo bar")
        expect(b.driver.switch_to.active_element == undo, "Undo does not have the focus after a delete")
        viewer.wait(lambda d: wine not in titles(viewer), "the delete in the other browser")
        undo.send_keys(Keys.ENTER)
        b.wait(lambda d: wine in titles(b), "Undo to bring the row back")
        viewer.wait(lambda d: wine in titles(viewer) and titles(viewer).index(wine) == before - 1, "the row back in place in the other browser")
    finally:
        viewer.quit()


def scenario_keys(b: Browser, args, state: dict):
    b.get(LIST + "?editing=1")
    first = b.js("return document.querySelector('ul.rows > li.cell').id").removeprefix("row-")
    b.get(f"{LIST}?editing=1&_edit={first}")
    field = b.driver.find_element(By.ID, "field-wine")
    field.send_keys(Keys.ESCAPE)
    b.wait(lambda d: "_edit" not in d.current_url and not d.find_elements(By.CSS_SELECTOR, ".editing-form"), "Escape to close the form")
    # Tab reaches every control of the first row, in order, each with a visible focus ring.
    b.get(LIST + "?editing=1")
    seen = []
    body = b.driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    for _ in range(40):
        element = b.driver.switch_to.active_element
        label = element.text or element.get_attribute("value") or ""
        if b.js("return !!arguments[0].closest('#row-' + arguments[1])", element, first):
            seen.append(label)
            outline = b.js("return getComputedStyle(arguments[0]).outlineStyle", element)
            expect(outline != "none", f"no focus ring on {label!r}")
        element.send_keys(Keys.TAB)
    expect("Delete" in seen and "Edit" in seen and "Mark as drunk" in seen, f"the keyboard does not reach the row's controls: {seen}")


def scenario_axe(b: Browser, args, state: dict):
    bad = []
    b.get(LIST + "?editing=1")
    first = b.js("return document.querySelector('ul.rows > li.cell').id").removeprefix("row-")
    for scheme in ("light", "dark"):
        b.set_view("desktop", scheme)
        for path in (LIST + "?editing=1", f"{LIST}?editing=1&_edit={first}", LIST + "?editing=1&_insert=0"):
            b.get(path)
            bad += axe_problems(b, f"{path} ({scheme})")
    b.set_view("desktop", "light")
    expect(not bad, f"{len(bad)} axe problem(s) in editing mode")


def scenario_shots(b: Browser, args, state: dict):
    expect(args.screenshots, "no --screenshots directory")
    b.get(LIST + "?editing=1")
    first = b.js("return document.querySelector('ul.rows > li.cell').id").removeprefix("row-")
    for viewport in VIEWPORTS:
        for scheme in ("light", "dark"):
            b.set_view(viewport, scheme)
            for name, path in (("editing", LIST + "?editing=1"), ("editing-row-form", f"{LIST}?editing=1&_edit={first}")):
                b.get(path)
                time.sleep(0.15)
                b.shot(args.screenshots, f"{name}-{viewport}-{scheme}")
    b.set_view("desktop", "light")


SCENARIOS = [("editing-live", scenario_live), ("editing-keys", scenario_keys), ("editing-axe", scenario_axe),
             ("screenshots", scenario_shots)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--only", nargs="+", choices=[n for n, _ in SCENARIOS])
    parser.add_argument("--timeout", type=float, default=15.0)
    parser.add_argument("--ignore-console", default=None)
    return run_scenarios(parser.parse_args(), SCENARIOS, title="editing_test")


if __name__ == "__main__":
    sys.exit(main())
