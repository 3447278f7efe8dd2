from django.urls import path

from quick import views

app_name = "quick"

urlpatterns = [
    path("api/now/", views.api_now, name="api_now"),
]
