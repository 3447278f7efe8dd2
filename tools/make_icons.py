"""Draws the PNG icons (web manifest, home screen, favicon fallback) from the
SVGs in static/icons, with the Chromium the browser tests use. Run once after
changing an SVG and commit the PNGs: `.venv/bin/python tools/make_icons.py`."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parents[1] / "static" / "icons"
SIZES = {"icon.svg": [32, 180, 192, 512], "icon-maskable.svg": [192, 512], "icon-badge.svg": [32]}


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
            args=["--no-sandbox"],
        )
        for name, sizes in SIZES.items():
            svg = (HERE / name).read_text()
            for size in sizes:
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(
                    f'<body style="margin:0">{svg.replace("<svg ", f"<svg width={size} height={size} ", 1)}</body>'
                )
                page.screenshot(path=str(HERE / f"{name[:-4]}-{size}.png"), omit_background=True)
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
