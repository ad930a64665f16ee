"""Headless Chromium through Selenium, for the replay page's tests (`make browser`
installs Debian's chromium and chromium-driver)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser() -> Iterator[Any]:
    if CHROMEDRIVER is None:
        pytest.skip("chromium-driver is not installed: `make browser` installs it")
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()


def mark(driver: Any, element: str = "mark") -> tuple[str, str]:
    """The colour of a check mark on the page and the sentence that says why, once the
    page's own check (hashing in the browser, which answers asynchronously) has run."""
    if element == "mark":
        WebDriverWait(driver, 30).until(
            lambda d: (
                d.find_element(By.ID, "mark").get_attribute("class") != "pending"
                or "still in play" in d.find_element(By.ID, "mark").text
            )
        )
    found = driver.find_element(By.ID, element)
    why = driver.find_element(By.ID, "why").text if element == "mark" else found.text
    return str(found.get_attribute("class")), str(why)


def findings(driver: Any) -> list[tuple[str, str, str]]:
    """The findings banner at the top of the page: (who found it, event version, text)."""
    mark(driver)
    items = driver.find_elements(By.CSS_SELECTOR, "#findings li")
    return [
        (str(i.get_attribute("data-source")), str(i.get_attribute("data-version") or ""), i.text)
        for i in items
    ]
