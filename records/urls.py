from django.urls import path

from records import views

app_name = "records"

urlpatterns = [
    path("ranking/", views.ranking, name="ranking"),
    path("players/<str:username>/", views.player, name="player"),
]
