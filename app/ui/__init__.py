"""The Flet screens of the app (see :mod:`app.ui.shell` for the routes)."""
