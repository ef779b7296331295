"""The REST API (Django REST framework, documented by drf-spectacular at /api/schema/ and
/api/docs/): variants, bots, players, tournaments with their entrants, standings, rounds and
bracket, matches, games with their records, and the ratings leaderboard."""
