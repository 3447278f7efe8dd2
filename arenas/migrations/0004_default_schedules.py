"""The schedule a fresh site starts with (docs/site.md, "Tournaments on a
calendar"): an admin changes or empties it in the admin. Created only where no
schedule exists yet, so migrating again never adds a second set."""

from datetime import time

from django.db import migrations

DEFAULTS = [
    # (name, preset, move clock, minutes, repeats, at, weekday)
    ("Duelo de hora em hora", "duelo", 15, 30, "hour", time(0, 0), None),
    ("Parceria das 21h", "parceria", 30, 60, "day", time(21, 0), None),
    ("Grande duelo de domingo", "duelo", 30, 90, "week", time(20, 0), 6),
]


def forwards(apps, schema_editor):
    Schedule = apps.get_model("arenas", "Schedule")
    if Schedule.objects.exists():
        return
    for name, preset, clock, minutes, every, at, weekday in DEFAULTS:
        Schedule.objects.create(
            name=name,
            preset=preset,
            move_seconds=clock,
            minutes=minutes,
            rated=True,
            every=every,
            at=at,
            weekday=weekday,
        )


class Migration(migrations.Migration):
    dependencies = [("arenas", "0003_schedules_seasons")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
