"""The table in a browser (`legacies serve`): a web server over one TableSession, the
page it serves and what the two say to each other. protocol.py: the messages and their
limits; table.py: the game served, its seats' links and who is told of a change;
app.py: the routes (the page, its files, a seat's view, its WebSocket); server.py:
uvicorn run in a thread (the command, the tests, the bench); static/: the page."""
