"""Games as the product keeps them: played.py, a game (the engine's rules and what the product keeps
beside them) and its stored form; session.py, the game in the session, as the API plays it."""
