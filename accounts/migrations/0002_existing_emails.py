"""Existing accounts' ``User.email`` (set through the admin, if ever) become
their addresses waiting for confirmation (docs/site.md, "Accounts: email"): a
person confirms from the Conta page ("Send the link again"). An address found on
several accounts (whatever its case) goes to the oldest account only; a value
that is not an address is left where it was."""

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import migrations


def forwards(apps, schema_editor):
    User = apps.get_model(*_user_model())
    EmailAddress = apps.get_model("accounts", "EmailAddress")
    seen = set(
        address.lower()
        for address in EmailAddress.objects.filter(state__in=["pending", "confirmed"]).values_list(
            "email", flat=True
        )
    )
    taken = set(EmailAddress.objects.values_list("user_id", flat=True))
    for user_id, email in User.objects.exclude(email="").order_by("pk").values_list("pk", "email"):
        address = (email or "").strip()
        try:
            validate_email(address)
        except ValidationError:
            continue
        if address.lower() in seen or user_id in taken:
            continue
        seen.add(address.lower())
        EmailAddress.objects.create(user_id=user_id, email=address, state="pending")


def _user_model():
    from django.conf import settings

    return settings.AUTH_USER_MODEL.split(".")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
