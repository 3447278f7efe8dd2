"""`Room.opened_by_arena` is `Room.seated_by_pairing`: the rooms name what the
flag means for a table (its people were paired, not invited), not who sets it
(docs/decisions.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("rooms", "0012_rules_walkover")]

    operations = [
        migrations.RenameField("room", "opened_by_arena", "seated_by_pairing"),
        migrations.AlterField(
            model_name="room",
            name="seated_by_pairing",
            field=models.BooleanField(default=False, verbose_name="seated by a pairing"),
        ),
    ]
