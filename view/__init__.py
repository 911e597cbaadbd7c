"""The seat's view: what one seat may know and do at one moment, as one typed value
(model.py) worked out from a game's state (build.py), with the table's log as records
(log.py), what a decision is for (purpose.py) and a card read in full (cards.py). Every
face draws it: the terminal table, the line mode, the browser."""
