from django.urls import path

from . import analysis_views, views

app_name = "rooms"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/", views.room_create, name="create"),
    path("r/<str:code>/", views.table, name="table"),
    path("r/<str:code>/rounds/<int:number>/", views.replay, name="replay"),
    path("i/<str:token>/", views.invite, name="invite"),
    path("api/rooms/", views.api_rooms, name="api_rooms"),
    path("api/rooms/<str:code>/rounds/<int:number>/", views.api_round, name="api_round"),
    path(
        "api/rooms/<str:code>/rounds/<int:number>/analysis/",
        analysis_views.api_round_analysis,
        name="api_round_analysis",
    ),
    path("players/<str:username>/", views.player, name="player"),
]
