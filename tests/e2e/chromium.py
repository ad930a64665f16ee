"""Headless Chromium through Selenium, for the replay page's tests (`make browser`
installs Debian's chromium and chromium-driver)."""

from __future__ import annotations

import io
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
    flags = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage")
    for flag in (*flags, "--window-size=1400,1000", "--force-device-scale-factor=1"):
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


def hex_colour(text: str) -> tuple[int, int, int]:
    """``#c0182a`` as (r, g, b)."""
    value = text.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def pixels_near(element: Any, colour: tuple[int, int, int], within: int = 40) -> int:
    """How many pixels of ``element``, as the browser draws it on screen, are ``colour``
    (each channel within ``within``): what the reader sees, not what the DOM says."""
    image_module = pytest.importorskip("PIL.Image")
    shot = image_module.open(io.BytesIO(element.screenshot_as_png)).convert("RGB")
    data = shot.tobytes()  # r, g, b, r, g, b, ...
    return sum(
        1
        for at in range(0, len(data), 3)
        if all(abs(data[at + i] - colour[i]) <= within for i in range(3))
    )
