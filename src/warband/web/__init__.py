"""``warband serve``: the table in the browser (FastAPI app, static page, seats, live updates, replays).

* ``store.py``   the SQLite store of tables (a game survives a restart)
* ``tables.py``  a table in play: its game, seats and secret links, agents, listeners
* ``replays.py`` finished games, ``--log`` files and lab games as step-by-step replays
* ``documents.py`` warband and scenario files for a new game: samples by id or uploads by content
* ``answers.py`` what a browser reads: the snapshot, the legal actions with odds, seat checks, the ruler
* ``errors.py``  the API's JSON error
* ``app.py``     the HTTP and WebSocket routes and the static page (``static/``: plain JS and SVG, no build step)
"""
