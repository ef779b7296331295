"""The web pages: the tournament list, a tournament's page (standings, bracket, live progress),
matches, the replay viewer, sign-in, and the pages where humans play."""
