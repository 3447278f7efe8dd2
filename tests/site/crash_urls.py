"""The site's URLs and one view that fails (tests/site/test_error_reports.py):
an exception in a view, as a bug would raise it, whose message names the
person's email address (as a database's duplicate-key error does)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def crash(request: HttpRequest) -> HttpResponse:
    typed = request.POST.get("password", "")
    raise RuntimeError(f"the account of {request.user.email} failed ({len(typed)} characters)")


urlpatterns = [
    path("crash/", crash),
    path("", include("domino_site.urls")),
]
