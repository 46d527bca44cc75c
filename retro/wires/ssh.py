# Tangled from literate/wire.md: edit the chapter, not this file, then run `retro tangle`.
"""SSH: the host key, the listener, and one session as a line.

Tangled from literate/wire.md, which explains it.
"""
from __future__ import annotations

import asyncio
import os
from pathlib import Path

from retro.wires.lines import Caller, Connect, Doors, Line, keep_alive


SSH_MISSING = "SSH needs asyncssh: pip install 'retro[ssh]'"


class KeyTrouble(Exception):
    """The host key cannot be used (the message says why, and what to do)."""


def host_key(directory: Path, asyncssh):
    """The server's SSH host key: made on first use, its owner's alone."""
    path = directory / "ssh_host_key"
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        return new_host_key(path, asyncssh)
    if mode & 0o077:
        raise KeyTrouble(f"the SSH host key {path} may be read by others "
                         f"(mode {mode:o}), so it is refused: chmod 600 it, "
                         f"or remove it and a new one is made")
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() \
            else type(error).__name__
        raise KeyTrouble(f"the SSH host key {path} cannot be read "
                         f"({reason}): remove it and a new one is made") \
            from None


def new_host_key(path: Path, asyncssh):
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another server made it a moment ago
        return asyncssh.read_private_key(path)
    with os.fdopen(made, "wb") as file:
        file.write(key.export_private_key())
    return key


def openssh(key) -> str:
    """A public key as "type base64", its comment left off."""
    return " ".join(key.export_public_key("openssh").decode().split()[:2])


def public_key(text: str) -> str | None:
    """The public key pasted as `text`, as "type base64"; None if not one."""
    try:
        import asyncssh

        return openssh(asyncssh.import_public_key(text.strip()))
    except Exception:  # ImportError, KeyImportError, ValueError, ...
        return None


async def open_ssh(connect: Connect, host: str, port: int, *,
                   keys: Path, doors: Doors, grace: float, tries: int,
                   closing: float):
    """Listen for SSH; the listener."""
    import asyncssh

    class Session(SSHLine, asyncssh.SSHServerSession):
        pass

    class Gate(asyncssh.SSHServer):
        def connection_made(self, conn) -> None:
            self.conn, self.opened, self.offered, self.tries = conn, False, "", 0
            self.user, self.needs, self.accepted, self.proven = "", True, "", ""
            keep_alive(conn.get_extra_info("socket"))
            self.host = str((conn.get_extra_info("peername") or ("?",))[0])
            self.refused = doors.refusal(self.host)
            self.ticket = None if self.refused else doors.arrive(self.host,
                                                                 conn.close)
            loop = asyncio.get_running_loop()
            if self.ticket is None and self.refused is None:
                loop.call_soon(conn.close)  # the room is going down
            self.timer = loop.call_later(grace, self.too_slow)

        def too_slow(self) -> None:
            if not self.opened:
                self.conn.close()

        def connection_lost(self, error: Exception | None) -> None:
            self.timer.cancel()
            if self.ticket is not None:  # not handed to a session
                doors.leave(self.ticket)

        def refuse(self, why: str) -> None:
            """Say `why` in the banner SSH shows, and close."""
            try:
                self.conn.send_auth_banner(why + "\r\n")
            except OSError:  # authentication is over: too late for a banner
                pass
            asyncio.get_running_loop().call_soon(self.conn.close)

        async def begin_auth(self, username: str) -> bool:
            self.user, self.accepted = username, ""  # a new name: nothing noted
            why = self.refused or doors.probe(Caller(self.host, f"ssh {self.host}"))
            if why is not None:
                self.refuse(why)
                return True
            self.needs = await doors.needs_proof(username)
            return self.needs

        def password_auth_supported(self) -> bool:
            return True

        def public_key_auth_supported(self) -> bool:
            return True

        async def validate_password(self, username: str, password: str) -> bool:
            self.tries += 1  # counted as it comes, whatever becomes of the check
            if self.tries > tries:
                self.conn.close()
                return False
            caller = Caller(self.host, f"ssh {self.host}")
            try:
                proved = await doors.password_proves(username, password, caller)
            except Exception as refused:  # the room's guard: said, then closed
                self.refuse(str(refused))
                return False
            self.accepted = username if proved and username == self.user else ""
            return proved

        async def validate_public_key(self, username: str, key) -> bool:
            self.offered = openssh(key)
            if not await doors.key_proves(username, self.offered):
                return False
            self.accepted = username if username == self.user else ""
            return True  # asyncssh goes on to check the signature

        def auth_completed(self) -> None:
            name = self.conn.get_extra_info("username") or ""
            self.proven = name if (self.needs and name == self.user
                                   and name == self.accepted) else ""

        def session_requested(self):
            if self.opened or self.ticket is None:
                return False  # one session a connection
            self.opened, ticket, self.ticket = True, self.ticket, None
            return Session(connect, closing, host=self.host, proven=self.proven,
                           offered=self.offered, ticket=ticket)

    return await asyncssh.create_server(
        Gate, host, port, server_host_keys=[host_key(keys, asyncssh)],
        backlog=512, encoding="utf-8", errors="replace", line_editor=True,
        login_timeout=grace, keepalive_interval=60, keepalive_count_max=4,
        agent_forwarding=False)


class SSHLine:
    """One SSH session: text in and out for its line."""

    def __init__(self, connect: Connect, closing: float, **gate):
        self.connect, self.closing, self.gate = connect, closing, gate
        self.line: Line | None = None

    def connection_made(self, channel) -> None:
        self.channel = channel

    def shell_requested(self) -> bool:
        return True

    def session_started(self) -> None:
        _, port, *_ = self.channel.get_extra_info("peername") or ("?", 0)
        self.line = self.connect(
            write=self.write, close=self.close, echo=self.echo,
            waiting=self.channel.get_write_buffer_size,
            peer=f"ssh {self.gate['host']}:{port}",
            login=self.channel.get_extra_info("username") or "", **self.gate)
        if self.channel.get_terminal_type():  # the line editor is on
            self.channel.register_key("\t", self.tab)
        self.terminal_size_changed(*self.channel.get_terminal_size())
        self.line.opened()

    def write(self, text: str) -> None:
        try:
            self.channel.write(text)
        except OSError:  # the channel is closing: its loss is on its way
            pass

    def tab(self, text: str, position: int) -> tuple[str, int]:
        if self.line is None:
            return text, position
        done = self.line.complete(text[:position])
        return done + text[position:], len(done)

    def echo(self, hidden: bool) -> None:
        if self.channel.get_terminal_type():  # else the client echoes
            self.channel.set_echo(not hidden)

    def terminal_size_changed(self, width: int, height: int,
                              pixwidth: int = 0, pixheight: int = 0) -> None:
        if self.line is not None and width > 0:  # 0: no terminal, or unsaid
            self.line.resized(width)

    def data_received(self, data: str, datatype) -> None:
        text = data.encode()
        if self.line is not None and self.line.pays(text):
            self.line.take(text)

    def soft_eof_received(self) -> None:
        self.data_received("\x04\n", None)  # Ctrl-D on an empty line

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

    def pause_writing(self) -> None:
        if self.line is not None:
            self.line.pause_writing()

    def resume_writing(self) -> None:
        if self.line is not None:
            self.line.resume_writing()

    def close(self) -> None:
        try:
            self.channel.exit(0)
        except (OSError, RuntimeError):  # the channel is closing already
            self.channel.close()
        asyncio.get_running_loop().call_later(self.closing, self.channel.abort)
