"""`legacies lsp`, the language server for editors: the server and its handlers
(server.py), the checks of an open document (check.py), what a name means and where
it is (query.py), completion, quick fixes, rename, and the transport and its limits
(frames.py, limits.py)."""
