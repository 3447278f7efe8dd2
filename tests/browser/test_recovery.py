"""An account kept for years, in a browser against the embedded server with a
real SMTP server (docs/site.md, "Accounts: email, recovery and the Conta
page"): sign up with an address, confirm it from the mail the server sent
(the in-process ticker's mail job, after the commit), forget the password,
follow "Esqueci minha senha" from the login page and the mail's link, choose
a new one: signed in, and the other browser's session is signed out; an
address nobody has gets the same answer and no mail."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, expect

from tests.accounts.conftest import Inbox, link_in
from tests.browser.conftest import _daphne, _free_port, _migrate, _server_env
from tests.browser.play import unique

pytestmark = pytest.mark.browser

PASSWORD = "dominó-secreto-42"
NEW_PASSWORD = "outro-segredo-bem-longo-7"


@pytest.fixture(scope="module")
def mail_server() -> Iterator[tuple[str, Inbox]]:
    """A Daphne of the embedded default whose mail goes to a real SMTP server on
    localhost (EMAIL_HOST, EMAIL_PORT), SITE_URL its own address: its URL and
    the SMTP server's inbox."""
    inbox = Inbox()
    smtp_port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    workdir = Path(tempfile.mkdtemp(prefix="domino-browser-mail-"))
    port = _free_port()
    env = _server_env(
        f"sqlite:///{workdir / 'mail.sqlite3'}",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        SITE_URL=f"http://127.0.0.1:{port}",
        DEFAULT_FROM_EMAIL="Dominó <noreply@domino.test>",
    )
    _migrate(env)
    try:
        with _daphne(env, workdir, "mail", port=port) as url:
            yield url, inbox
    finally:
        controller.stop()


def test_sign_up_confirm_forget_and_recover_in_a_browser(
    browser: Browser, mail_server: tuple[str, Inbox], artifacts: Path
) -> None:
    base, inbox = mail_server
    name = unique("rec")
    email = f"{name}@example.com"
    first = browser.new_context(locale="pt-BR")
    second = browser.new_context(locale="pt-BR")
    try:
        page = first.new_page()
        page.goto(base + "/accounts/signup/")
        expect(page.locator("[data-form=signup]")).to_contain_text(
            "A única forma de recuperar sua conta se esquecer a senha."
        )
        page.fill("#id_username", name)
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.fill("#id_email", email)
        page.click("[data-form=signup] button[type=submit]")
        page.wait_for_url(base + "/")

        confirm = inbox.wait(email, 1, timeout=30)
        assert confirm["From"] == "Dominó <noreply@domino.test>"
        link = link_in(confirm)
        assert link.startswith(base + "/conta/email/confirmar/")
        page.goto(link)
        expect(page.locator("[data-confirmed]")).to_contain_text(email)

        # Later, on another device: the password is forgotten.
        other = second.new_page()
        other.goto(base + "/accounts/login/")
        other.click("[data-link=password-reset]")
        other.fill("#id_email", email.upper())
        other.click("[data-form=password-reset] button[type=submit]")
        expect(other.locator("[data-reset-sent]")).to_be_visible()
        same = second.new_page()  # an address nobody has: the same page
        same.goto(base + "/accounts/password_reset/")
        same.fill("#id_email", f"nobody-{name}@example.com")
        same.click("[data-form=password-reset] button[type=submit]")
        expect(same.locator("[data-reset-sent]")).to_have_text(
            other.locator("[data-reset-sent]").inner_text()
        )

        recovery = inbox.wait(email, 2, timeout=30)
        assert recovery["Subject"] == "Dominó: uma nova senha"
        other.goto(link_in(recovery))
        other.fill("#id_new_password1", NEW_PASSWORD)
        other.fill("#id_new_password2", NEW_PASSWORD)
        other.click("[data-form=password-set] button[type=submit]")
        expect(other.locator("[data-reset-complete]")).to_be_visible()
        expect(other.locator("[data-link=conta]")).to_be_visible()  # signed in
        other.screenshot(path=str(artifacts / "recovery-complete.png"))

        page.goto(base + "/conta/")  # the first browser's session is over
        page.wait_for_url(f"{base}/accounts/login/?next=/conta/")
        page.fill("#id_username", name)
        page.fill("#id_password", NEW_PASSWORD)
        page.click("[data-form=login] button[type=submit]")
        page.wait_for_url(base + "/conta/")
        expect(page.locator("[data-confirmed-email]")).to_contain_text(email)
        assert inbox.to(f"nobody-{name}@example.com") == []
    finally:
        first.close()
        second.close()
