#!/usr/bin/env python3
"""Editing mode in Chromium, on the showcase's /to-drink (anyone may edit it):

  editing-live    two browsers in editing mode: one inserts a bottle, edits it in place (Enter
                  saves), moves it up by the keyboard (Alt+ArrowUp), deletes it and undoes the
                  delete, each a fetch shown through the event stream; the other sees each change
                  without a reload, and a row it has open in a form is marked "Changed by someone
                  else" and its save refused.
  editing-keys    Escape closes a row's form; the keyboard alone reaches every control.
  editing-phone   at 390 px a row's buttons are a menu (<details>), at 1280 px a row of buttons.
  editing-axe     axe-core on editing mode, a row's form open, light and dark: no violations.
  editing-shots   screenshots of editing mode at 1280 and 390 px, light and dark.

  editing_test.py --base-url http://127.0.0.1:PORT [--screenshots DIR]
"""
import argparse
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
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


def live_text(b: Browser) -> str:
    return b.js("return document.getElementById('live').textContent")


def open_editing(b: Browser):
    b.get(LIST + "?editing=1")
    b.wait(lambda d: b.js("return document.documentElement.dataset.liveStream") == "open", "the editing page's event stream")
    b.js("window.__notReloaded = true")


def scenario_live(b: Browser, args, state: dict):
    """Two browsers in editing mode: every change made in one by the script (a fetch answered 204)
    appears in both through the event stream, without a reload, announced in the live region."""
    other = Browser(args.base_url, args.timeout, None)
    try:
        open_editing(b)
        open_editing(other)
        wine = f"E2E Riesling {int(time.time()) % 100000}"
        b.driver.find_element(By.CSS_SELECTOR, "a.editing-add").click()
        field = b.wait(lambda d: d.find_element(By.ID, "field-wine"), "the insert row's form in place")
        expect(b.driver.switch_to.active_element == field, "the insert form opened in place does not have the focus")
        expect("_insert" not in b.driver.current_url, "the insert form was opened by a page load")
        field.send_keys(wine + Keys.ENTER)
        b.wait(lambda d: wine in titles(b), "the inserted bottle, through the batch")
        other.wait(lambda d: wine in titles(other), "the inserted bottle in the other browser")
        b.wait(lambda d: live_text(b) == "Row added", "'Row added' in the live region")
        expect(not b.driver.find_elements(By.CSS_SELECTOR, ".editing-insert .editing-form"), "the insert form stayed open")

        row_of(b, wine).find_element(By.CSS_SELECTOR, ".editing-edit").click()
        field = b.wait(lambda d: d.find_element(By.ID, "field-wine"), "the row's form in place")
        field.clear()
        field.send_keys(wine + " (edited)" + Keys.ENTER)
        wine += " (edited)"
        b.wait(lambda d: wine in titles(b) and not d.find_elements(By.CSS_SELECTOR, ".editing-open"), "Enter to save the row in place")
        other.wait(lambda d: wine in titles(other), "the edit in the other browser")
        b.wait(lambda d: live_text(b) == "Row saved", "'Row saved' in the live region")
        expect(b.js("return document.activeElement.closest('li') && document.activeElement.closest('li').id") == row_of(b, wine).get_attribute("id"),
               "the focus is not on the saved row")

        before = titles(b).index(wine)
        row_of(b, wine).find_element(By.CSS_SELECTOR, "button.editing-move[value=up]").send_keys(Keys.ALT, Keys.ARROW_UP)
        b.wait(lambda d: wine in titles(b) and titles(b).index(wine) == before - 1, "Alt+ArrowUp to move the row up")
        other.wait(lambda d: wine in titles(other) and titles(other).index(wine) == before - 1, "the move in the other browser")
        b.wait(lambda d: live_text(b) == "Row moved", "'Row moved' in the live region")
        row_id = row_of(b, wine).get_attribute("id")
        expect(b.js("return !!document.activeElement.closest('#' + CSS.escape(arguments[0]))", row_id), "the focus did not stay on the moved row")

        # Dragged by its handle below the last row, and back above the first.
        for target, where in ((-1, "after"), (0, "before")):
            rows = b.driver.find_elements(By.CSS_SELECTOR, ROWS)
            beside = rows[target]
            handle = row_of(b, wine).find_element(By.CSS_SELECTOR, ".editing-drag")
            # Both ends of the drag in the viewport (a pointer cannot move outside it).
            b.js("arguments[0].scrollIntoView({block: 'center'})", beside)
            height = beside.size["height"]
            offset = height // 2 - 4 if where == "after" else -(height // 2) + 4
            ActionChains(b.driver).click_and_hold(handle).move_to_element(beside).move_to_element_with_offset(beside, 0, offset) \
                .release().perform()
            b.wait(lambda d: titles(b)[target] == wine, f"the drag to put the row {where} the {'last' if target else 'first'} row")
            other.wait(lambda d: titles(other)[target] == wine, "the drag in the other browser")
        b.wait(lambda d: live_text(b) == "Row moved", "'Row moved' after a drag")
        place = titles(b).index(wine)

        # A row open in a form in one browser, changed in the other: said in the form, not
        # replaced; its save is refused with the row as it is now, the values typed kept.
        row_of(other, wine).find_element(By.CSS_SELECTOR, ".editing-edit").click()
        field = other.wait(lambda d: d.find_element(By.ID, "field-wine"), "the other browser's form in place")
        field.clear()
        field.send_keys("Typed meanwhile")
        row_of(b, wine).find_element(By.CSS_SELECTOR, "button.editing-action[value='action:drunk']").click()
        other.wait(lambda d: "Changed by someone else" in d.find_element(By.CSS_SELECTOR, ".editing-open").text, "'Changed by someone else' in the open form")
        expect(other.driver.find_element(By.ID, "field-wine").get_attribute("value") == "Typed meanwhile", "the open form lost what was typed")
        other.driver.find_element(By.CSS_SELECTOR, ".editing-open button[type=submit]").click()
        other.wait(lambda d: "Someone else changed this row" in d.find_element(By.CSS_SELECTOR, ".editing-open").text, "the conflict shown in the row")
        expect(other.driver.find_element(By.ID, "field-wine").get_attribute("value") == "Typed meanwhile", "the refused save lost the values")
        expect(wine in titles(b), "the refused save overwrote the row")
        other.driver.find_element(By.CSS_SELECTOR, ".editing-open .editing-cancel").click()
        other.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, ".editing-open") and wine in titles(other), "Cancel to show the row as it is")

        row_of(b, wine).find_element(By.CSS_SELECTOR, "button.editing-delete").click()
        b.wait(lambda d: wine not in titles(b), "the delete, through the batch")
        other.wait(lambda d: wine not in titles(other), "the delete in the other browser")
        b.wait(lambda d: live_text(b) == "Row deleted. Undo", "'Row deleted. Undo' in the live region")
        undo = b.driver.find_element(By.CSS_SELECTOR, ".editing-undo button")
        undo.click()
        b.wait(lambda d: wine in titles(b), "Undo to bring the row back")
        other.wait(lambda d: wine in titles(other) and titles(other).index(wine) == place, "the row back in place in the other browser")
        b.wait(lambda d: live_text(b) == "Row restored", "'Row restored' in the live region")
        for browser in (b, other):
            expect(browser.js("return window.__notReloaded === true"), "a page was reloaded")
    finally:
        other.quit()


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
    # The first row's swipe action is "Mark as drunk", or "Mark as not drunk" once editing-live marked it.
    expect("Delete" in seen and "Edit" in seen and any(label.startswith("Mark as") for label in seen),
           f"the keyboard does not reach the row's controls: {seen}")


def scenario_phone(b: Browser, args, state: dict):
    """At 390 px a row's buttons are a menu (its <details>), a row of buttons at 1280 px."""
    b.set_view("mobile", "light")
    b.get(LIST + "?editing=1")
    row = b.driver.find_elements(By.CSS_SELECTOR, ROWS)[0]
    summary = row.find_element(By.CSS_SELECTOR, ".editing-menu > summary")
    delete = row.find_element(By.CSS_SELECTOR, "button.editing-delete")
    expect(summary.is_displayed() and not delete.is_displayed(), "at phone width the row's buttons are not in a closed menu")
    summary.click()
    b.wait(lambda d: delete.is_displayed(), "the menu to open and show Delete")
    b.set_view("desktop", "light")
    b.get(LIST + "?editing=1")
    row = b.driver.find_elements(By.CSS_SELECTOR, ROWS)[0]
    expect(not row.find_element(By.CSS_SELECTOR, ".editing-menu > summary").is_displayed()
           and row.find_element(By.CSS_SELECTOR, "button.editing-delete").is_displayed(), "at 1280 px the buttons are not a row of buttons")


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


SCENARIOS = [("editing-live", scenario_live), ("editing-keys", scenario_keys), ("editing-phone", scenario_phone), ("editing-axe", scenario_axe),
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
