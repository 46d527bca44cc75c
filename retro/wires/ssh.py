# Tangled from literate/wire.md: edit the chapter, not this file, then run `retro tangle`.
"""SSH: the host key, the listener, and one session as a line.

Tangled from literate/wire.md, which explains it.
"""
from __future__ import annotations

import asyncio
import os
from pathlib import Path

from retro.wires.lines import Connect, Line


SSH_MISSING = "SSH needs asyncssh: pip install 'retro[ssh]'"


def host_key(directory: Path, asyncssh):
    """The server's SSH host key: made on first use, its owner's alone."""
    path = directory / "ssh_host_key"
    try:
        return asyncssh.read_private_key(path)
    except FileNotFoundError:
        pass
    key = asyncssh.generate_private_key("ssh-ed25519")
    directory.mkdir(parents=True, exist_ok=True)
    try:
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another server made it a moment ago
        return asyncssh.read_private_key(path)
    with os.fdopen(made, "wb") as file:
        file.write(key.export_private_key())
    return key


async def open_ssh(connect: Connect, host: str, port: int, *,
                   keys: Path, login_timeout: float):
    """Listen for SSH; the listener."""
    import asyncssh

    class Session(SSHLine, asyncssh.SSHServerSession):
        pass

    class Gate(asyncssh.SSHServer):
        def begin_auth(self, username: str) -> bool:
            return False  # no password: a name is all a player gives

        def session_requested(self):
            return Session(connect)

    return await asyncssh.create_server(
        Gate, host, port, server_host_keys=[host_key(keys, asyncssh)],
        backlog=512, encoding="utf-8", errors="replace", line_editor=True,
        login_timeout=login_timeout)


class SSHLine:
    """One SSH session: text in and out for its line."""

    def __init__(self, connect: Connect):
        self.connect = connect
        self.line: Line | None = None

    def connection_made(self, channel) -> None:
        self.channel = channel

    def shell_requested(self) -> bool:
        return True

    def session_started(self) -> None:
        host, port, *_ = self.channel.get_extra_info("peername") or ("?", 0)
        self.line = self.connect(
            write=self.channel.write, close=self.close,
            waiting=self.channel.get_write_buffer_size,
            peer=f"ssh {host}:{port}",
            login=self.channel.get_extra_info("username") or "")
        self.line.opened()

    def data_received(self, data: str, datatype) -> None:
        text = data.encode()
        if self.line is not None and self.line.pays(text):
            self.line.take(text)

    def break_received(self, msec: int) -> bool:
        if self.line is not None:
            self.line.interrupted()
        return True

    def eof_received(self) -> bool:
        if self.line is not None:
            self.line.ended()
        return True

    def connection_lost(self, error: Exception | None) -> None:
        if self.line is not None:
            self.line.lost()

    def close(self) -> None:
        self.channel.close()
        asyncio.get_running_loop().call_later(5.0, self.channel.abort)
