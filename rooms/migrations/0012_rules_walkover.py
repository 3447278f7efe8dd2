"""The walkover is a knob of the rule set (`games.engine.RuleSet.walkover`), no
longer the preset's name: the rooms of the "arena" table stored before it get
the knob their table has now."""

from django.db import migrations


def walkover_knob(apps, schema_editor):
    Room = apps.get_model("rooms", "Room")
    for room in Room.objects.filter(preset="arena").only("pk", "rules").iterator():
        if "walkover" not in (room.rules or {}):
            room.rules = {**(room.rules or {}), "walkover": True}
            room.save(update_fields=["rules"])


def no_walkover_knob(apps, schema_editor):
    Room = apps.get_model("rooms", "Room")
    for room in Room.objects.filter(preset="arena").only("pk", "rules").iterator():
        if "walkover" in (room.rules or {}):
            room.rules = {k: v for k, v in room.rules.items() if k != "walkover"}
            room.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0011_room_opened_by_arena"),
    ]

    operations = [
        migrations.RunPython(walkover_knob, no_walkover_knob),
    ]
