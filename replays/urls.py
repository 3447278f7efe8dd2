from django.urls import path

from replays import analysis_views, views, whatif_views

app_name = "replays"

urlpatterns = [
    path("r/<str:code>/rounds/<int:number>/", views.replay, name="replay"),
    path("api/rooms/<str:code>/rounds/<int:number>/", views.api_round, name="api_round"),
    path(
        "api/rooms/<str:code>/rounds/<int:number>/analysis/",
        analysis_views.api_round_analysis,
        name="api_round_analysis",
    ),
    path(
        "api/rooms/<str:code>/rounds/<int:number>/whatif/",
        whatif_views.api_round_whatif,
        name="api_round_whatif",
    ),
]
