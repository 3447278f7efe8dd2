from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("r/<str:code>/", views.table, name="table"),
    path("i/<str:token>/", views.invite, name="invite"),
]
