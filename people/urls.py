from django.urls import path

from people import views

app_name = "people"

urlpatterns = [
    path("friends/<str:username>/request/", views.request_send, name="request"),
    path("friends/<str:username>/accept/", views.request_accept, name="accept"),
    path("friends/<str:username>/decline/", views.request_decline, name="decline"),
    path("friends/<str:username>/withdraw/", views.request_withdraw, name="withdraw"),
    path("friends/<str:username>/remove/", views.friend_remove, name="remove"),
    path("friends/<str:username>/block/", views.block, name="block"),
    path("friends/<str:username>/unblock/", views.unblock, name="unblock"),
    path("friends/<str:username>/challenge/", views.challenge_send, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path(
        "challenges/<int:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"
    ),
    path(
        "challenges/<int:challenge_id>/withdraw/",
        views.challenge_withdraw,
        name="challenge_withdraw",
    ),
    path("challenges/settings/", views.preferences, name="preferences"),
    path("rematch/<str:code>/", views.rematch, name="rematch"),
    path("friends/<str:username>/report/", views.report, name="report"),
    path("moderation/name/", views.rename, name="rename"),
    path("quick/partner/", views.queue_partner, name="queue_partner"),
]
