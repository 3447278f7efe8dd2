from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rooms/", views.room_create, name="create"),
    path("api/rooms/", views.api_rooms, name="api_rooms"),
]
