"""The Conta page and its forms (docs/protocol.md, "Accounts"). Recovery's
routes keep Django's names and paths (domino_site/urls.py)."""

from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("conta/", views.conta, name="conta"),
    path("conta/email/", views.email_add, name="email_add"),
    path("conta/email/reenviar/", views.email_resend, name="email_resend"),
    path("conta/email/confirmar/<str:token>/", views.email_confirm, name="email_confirm"),
    path("conta/senha/", views.password_change, name="password_change"),
    path("conta/sessoes/encerrar/", views.sessions_end, name="sessions_end"),
]
