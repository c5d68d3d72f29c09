"""This machine's address on the local network (for the addresses phones type or scan)."""

from __future__ import annotations

import socket

__all__ = ["lan_address"]


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        addr: str = s.getsockname()[0]
        return None if addr.startswith("127.") else addr
    except OSError:
        return None
    finally:
        s.close()
