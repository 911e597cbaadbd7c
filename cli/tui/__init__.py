"""The full-screen table at a terminal (Textual), drawn from the seat's view."""
