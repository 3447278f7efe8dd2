from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("r/<str:code>/", views.table, name="table"),
    path("r/<str:code>/sentar/", views.join, name="join"),
    path("i/<str:token>/", views.invite, name="invite"),
]
