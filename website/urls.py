"""The site's pages, from every app, under one namespace (`web:`): the tournaments' (list, page,
matches, replays, entering), the bots' (My bots), the tables' (the lobby, a table) and the site's
own (ratings, users, accounts)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tables.web import views as tables
from tournaments.web import entries, ladder
from tournaments.web import views as tournaments
from website import bot_pages, docs_views, users, views

app_name = "web"

urlpatterns = [
    path("", views.front_page, name="home"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/enter/", entries.enter, name="enter"),
    path("tournaments/<int:pk>/withdraw/", entries.withdraw, name="withdraw"),
    path("tournaments/<int:pk>/start/", entries.start, name="start"),
    path("tournaments/<int:pk>/add-bots/", entries.add_bots, name="add-bots"),
    path("users/<str:username>/", users.user_page, name="user"),
    path("matches/<int:pk>/", tournaments.match_detail, name="match"),
    path("games/<int:pk>/replay/", tournaments.replay, name="replay"),
    path("games/<int:pk>/logs/", tournaments.game_logs, name="game-logs"),
    path("tournaments/open/", tournaments.open_tournaments, name="open-tournaments"),
    path("bots/<int:pk>/", bot_pages.bot_page, name="bot"),
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/<int:pk>/", views.rating_detail, name="rating"),
    path("ladder/", ladder.ladder_index, name="ladders"),
    path("ladder/<int:pk>/", ladder.ladder_board, name="ladder"),
    path("ladder/entries/<int:pk>/", ladder.ladder_entry, name="ladder-entry"),
    path("docs/<slug:name>/", docs_views.doc, name="doc"),
    path("docs/bots/starter/<slug:language>.zip", docs_views.starter, name="starter"),
    path("bots/mine/", bot_pages.my_bots, name="my-bots"),
    path("bots/<int:pk>/retire/", bot_pages.retire, name="retire-bot"),
    path("play/", tables.play_lobby, name="play"),
    path("play/matches/<int:pk>/", tables.play_table, name="play-match"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(template_name="registration/login.html", next_page="web:play"),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="web:home"), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
]
