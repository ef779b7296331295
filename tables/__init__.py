"""Human seats: games whose decisions come from people through the REST API and the play page,
advanced through the bots' turns up to the next human decision, with a turn timer."""
