from django.contrib.auth import views as auth_views
from django.urls import path

from tournaments.web import entries, my_bots, users, views

app_name = "web"

urlpatterns = [
    path("", views.tournament_list, name="home"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/enter/", entries.enter, name="enter"),
    path("tournaments/<int:pk>/withdraw/", entries.withdraw, name="withdraw"),
    path("tournaments/<int:pk>/start/", entries.start, name="start"),
    path("users/<str:username>/", users.user_page, name="user"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("games/<int:pk>/replay/", views.replay, name="replay"),
    path("ratings/", views.ratings, name="ratings"),
    path("bots/mine/", my_bots.my_bots, name="my-bots"),
    path("bots/<int:pk>/retire/", my_bots.retire, name="retire-bot"),
    path("play/", views.play_lobby, name="play"),
    path("play/matches/<int:pk>/", views.play_table, name="play-match"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="registration/login.html", next_page="web:play"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
]
