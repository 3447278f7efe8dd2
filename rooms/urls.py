from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/", views.room_create, name="create"),
    path("r/<str:code>/", views.table, name="table"),
    path("i/<str:token>/", views.invite, name="invite"),
    path("api/rooms/", views.api_rooms, name="api_rooms"),
    path("players/<str:username>/", views.player, name="player"),
]
