"""The companion app: Flet UI over TinyDB storage; every score comes from :mod:`rules`."""
