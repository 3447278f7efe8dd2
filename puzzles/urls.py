from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("problemas/", views.next_puzzle, name="next"),
    path("problemas/diario/", views.daily, name="daily"),
    path("problemas/<int:puzzle_id>/", views.puzzle_page, name="puzzle"),
    path("problemas/<int:puzzle_id>/resposta/", views.answer, name="answer"),
    path("problemas/treinar/<int:round_id>/<int:seq>/", views.train, name="train"),
]
