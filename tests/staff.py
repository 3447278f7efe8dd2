"""Staff in the admin when DEBUG is off (as in every test: pytest-django turns
it off): a session that gave its second factor (docs/site.md, "Two-step
sign-in"). `sign_in_verified` gives the account a confirmed authenticator
app (if it has none) and signs the test client in with it, as the second
step does."""

from __future__ import annotations

from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice


def sign_in_verified(client, user) -> TOTPDevice:
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="app", confirmed=True)
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device
