from django.urls import path

from privacy import views

app_name = "privacy"

urlpatterns = [
    path("accounts/export/", views.export, name="export"),
    path("accounts/delete/", views.delete, name="delete"),
    path("accounts/deleted/", views.deleted, name="deleted"),
    path("privacidade/", views.notice, name="notice"),
    path("termos/", views.terms, name="terms"),
]
