"""The Flet screens of the app, one package per feature.

Routes: :mod:`app.ui.common.session`; layers: :mod:`app.ui.shell`.
"""
