from django.shortcuts import render


def lobby(request):
    """The lobby (placeholder until the room list and create form land)."""
    return render(request, "lobby.html")
