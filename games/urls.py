from django.urls import path

from games import rules_pages

app_name = "games"

urlpatterns = [
    path("regras/", rules_pages.rules_index, name="rules"),
    path("regras/<slug:preset>/", rules_pages.rules_preset, name="rules_preset"),
]
