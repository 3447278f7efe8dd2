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
]
