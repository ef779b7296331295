"""The web pages of tournaments: the tournament list, a tournament's page (standings, bracket,
live progress), matches, the replay viewer and entering."""
