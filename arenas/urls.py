from django.urls import path

from arenas import views

app_name = "arenas"

urlpatterns = [
    path("", views.arena_list, name="list"),
    path("novo/", views.arena_new, name="new"),
    path("convite/<str:token>/", views.arena_invite, name="invite"),
    path("<int:arena_id>/", views.arena_page, name="detail"),
    path("<int:arena_id>/join/", views.arena_join_view, name="join"),
    path("<int:arena_id>/leave/", views.arena_leave_view, name="leave"),
]
