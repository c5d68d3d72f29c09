"""The Flet screens of the app (routes: :mod:`app.ui.session`; layers: :mod:`app.ui.shell`)."""
