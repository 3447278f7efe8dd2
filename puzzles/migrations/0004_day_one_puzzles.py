"""The day-one puzzles (puzzles/data/day_one.json, made by
tools/make_day_one_puzzles.py): a fresh site's `migrate` gives it puzzles and
a puzzle of the day. Idempotent (by ``origin_key``): a site that has them
already gets nothing twice. Backwards: they stay (tries may point at them)."""

from django.db import migrations

from puzzles import day_one
from records.rating import SCALE


def load_day_one(apps, schema_editor):
    day_one.load(apps.get_model("puzzles", "Puzzle"), scale=SCALE)


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0003_day_one_origin")]

    operations = [migrations.RunPython(load_day_one, migrations.RunPython.noop)]
