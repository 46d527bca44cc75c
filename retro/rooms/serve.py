# Tangled from literate/serve.md: edit the chapter, not this file, then run `retro tangle`.
"""`retro serve`: the served room's listeners, run until told to stop.

Tangled from literate/serve.md, which explains it.
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import importlib.util
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from retro.common import UsageError, whole_number
from retro.games.registry import GAMES
from retro.rooms.room import install
from retro.rooms.limits import Limits
from retro.rooms.login import NAME_RULE
from retro.rooms.server import Server
from retro.services.accounts import (account, claim, hashed, matches,
                                     password_trouble)
from retro.services.guard import Guarding
from retro.services.store import Store, StoreError, data_dir, is_name
from retro.wires.ssh import SSH_MISSING, KeyTrouble, open_ssh
from retro.wires.telnet import open_telnet
from retro.wires.web import open_web


STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


async def serve(where: Path | str, limits: Limits, host: str, telnet: int,
                ssh: int | None, operator: str | None = None,
                web: Web | None = None) -> int:
    """Serve the room until Ctrl-C, SIGTERM or SIGHUP; the exit status."""
    server = Server(where, limits, operator=operator)
    try:
        await server.start()
        listeners = [("telnet", await open_telnet(
            server.connect, host, telnet, closing=limits.closing))]
        if ssh is not None:
            listeners.append(("ssh", await open_ssh(
                server.connect, host, ssh, keys=data_dir(), doors=server,
                grace=limits.name_wait, tries=limits.tries,
                closing=limits.closing)))
        if web is not None:
            listeners.append(("web", await open_web(
                server.connect, host, web.port, doors=server,
                grace=limits.name_wait,
                closing=limits.closing, holding=limits.output // 4,
                origins=web.origins, ssl=web.tls())))
    except (OSError, KeyTrouble, StoreError, WebTrouble) as error:
        server.log(f"cannot listen on {host}: {error.strerror or error}"
                   if isinstance(error, OSError) else str(error))
        await server.go_down()
        return 1
    for protocol, listener in listeners:
        port = listener.sockets[0].getsockname()[1]
        print(f"retro serve: {protocol} on {host} port {port}", flush=True)
    stop = asyncio.Event()
    for number in STOPPING:
        try:
            server.loop.add_signal_handler(number, stop.set)
        except (NotImplementedError, RuntimeError, AttributeError):
            pass  # not on this system
    await stop.wait()
    for _, listener in listeners:
        listener.close()
    await server.go_down()
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="open the machine room to many players, over telnet "
        "and SSH", description="Serve the machine room to many players at "
        "once, over telnet (and SSH if asked), until Ctrl-C, SIGTERM or "
        "SIGHUP. Each player claims a NAME with a password, or plays as a "
        "guest.")
    port = whole_number(0, 65535)
    parser.add_argument("--telnet", type=port, default=6400, metavar="PORT",
                        help="the telnet port (default 6400; 0: any free)")
    parser.add_argument("--ssh", type=port, metavar="PORT",
                        help="serve SSH too, on PORT (needs asyncssh)")
    parser.add_argument("--host", default="127.0.0.1", type=address,
                        help="the address to listen on (default 127.0.0.1;"
                        " 0.0.0.0 for every address)")
    parser.add_argument("--web", type=port, metavar="PORT",
                        help="serve the web door too, on PORT: a page and a "
                        "WebSocket (needs websockets)")
    parser.add_argument("--web-origin", action="append", metavar="ORIGIN",
                        help="another site whose pages may open the web door "
                        "(https://example.org; again for more)")
    parser.add_argument("--web-cert", metavar="FILE",
                        help="a certificate, to serve the web door over TLS")
    parser.add_argument("--web-key", metavar="FILE",
                        help="the certificate's private key")
    parser.add_argument("--store", metavar="WHERE",
                        help="the room's records: a SQLite file, or a "
                        "postgresql:// URL that several servers of one room "
                        "share (default: served.sqlite3 in the data "
                        "directory)")
    parser.add_argument("--operator", metavar="NAME", type=operator_name,
                        help="the player who may RESET HER and see where "
                        "players come from (asked for a password here if "
                        "NAME is not claimed yet)")
    parser.add_argument("--max-players", type=whole_number(1, 10000),
                        default=Limits.players, metavar="N",
                        help=f"players logged in at once, one place kept for "
                        f"the operator (default {Limits.players})")
    parser.add_argument("--per-address", type=whole_number(1, 10000),
                        default=Limits.per_address, metavar="N",
                        help=f"players and guests on line from one address, "
                        f"the operator not counted (default "
                        f"{Limits.per_address})")
    parser.add_argument("--claims", type=whole_number(1), metavar="N",
                        default=Guarding.room_claims,
                        help=f"names that may be claimed in the whole room in a "
                        f"minute (default {Guarding.room_claims})")
    parser.add_argument("--idle", type=whole_number(1), metavar="SECONDS",
                        default=int(Limits.idle),
                        help="seconds a named player may be silent "
                        f"(default {int(Limits.idle)})")
    parser.add_argument("--name-wait", type=whole_number(1), metavar="SECONDS",
                        default=int(Limits.name_wait),
                        help="seconds to log in "
                        f"(default {int(Limits.name_wait)})")
    parser.set_defaults(func=serve_command)


@dataclass(frozen=True)
class Web:
    """The web door: its port, the other sites whose pages may open it,
    and its certificate and key for TLS."""

    port: int
    origins: tuple[str, ...] = ()
    cert: str | None = None
    key: str | None = None

    def tls(self):
        """The TLS context for the certificate and key; None for none."""
        if self.cert is None:
            return None
        import ssl

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            context.load_cert_chain(self.cert, self.key)
        except (OSError, ssl.SSLError) as error:
            raise WebTrouble(f"the web door's certificate cannot be used "
                             f"({getattr(error, 'strerror', None) or error})"
                             ) from None
        return context


class WebTrouble(Exception):
    """The web door cannot open (the message says why)."""


def web_door(args) -> Web | None:
    """The web door the options ask for, if any."""
    if args.web is None:
        return None
    if importlib.util.find_spec("websockets") is None:
        raise UsageError("the web door needs websockets: pip install "
                         "'retro[web]'")
    if (args.web_cert is None) != (args.web_key is None):
        raise UsageError("--web-cert and --web-key go together")
    return Web(args.web, tuple(args.web_origin or ()), args.web_cert,
               args.web_key)


def address(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "an empty address would mean every address; say 0.0.0.0 (or ::)"
            " if that is meant")
    return text.strip()


def operator_name(text: str) -> str:
    if not is_name(text):
        raise argparse.ArgumentTypeError(NAME_RULE)
    return text.lower()


SPARE_FILES = 64  # the store, its log, the listeners, the loop, and room


def room_for_files(players: int, limits: Limits) -> str | None:
    """Make room for `players` in the open-file limit; what is wrong if
    there is none."""
    try:
        import resource
    except ImportError:  # not on this system: nothing to check
        return None
    wanted = players + limits.waiting + SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return None
    if hard == resource.RLIM_INFINITY or hard >= wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        return None
    fits = max(0, hard - limits.waiting - SPARE_FILES)
    return (f"--max-players {players} needs {wanted} open files, and this "
            f"process may have {hard} (ulimit -n); --max-players {fits} fits")


def store_trouble(where: Path | str) -> str | None:
    """Why the served room's store at `where` cannot be used; None if it
    can (a damaged file is set aside and a fresh one started, as ever)."""
    try:
        Store.open(where, fallback=False).close()
    except StoreError as error:
        return str(error)
    return None


SERVED = "served.sqlite3"  # the served room's store, apart from the console's


def serve_command(args) -> int:
    if args.ssh is not None and importlib.util.find_spec("asyncssh") is None:
        raise UsageError(SSH_MISSING)
    limits = Limits(players=args.max_players, per_address=args.per_address,
                    idle=float(args.idle), name_wait=float(args.name_wait),
                    guarding=Guarding(room_claims=args.claims))
    trouble = room_for_files(args.max_players, limits)
    if trouble is not None:
        raise UsageError(trouble)
    if not loopback(args.host):
        print(f"retro serve: {args.host} is not the loopback address: "
              f"anyone who can reach it can connect, claim a name or play "
              f"as a guest", file=sys.stderr)
    where = args.store or data_dir() / SERVED
    trouble = store_trouble(where)
    if trouble is not None:
        print(f"retro serve: {trouble}", file=sys.stderr)
        return 1
    if args.operator is not None:
        own_operator(where, args.operator)
    for game in GAMES:
        install(game)
    return asyncio.run(serve(where, limits, args.host, args.telnet,
                             args.ssh, args.operator, web_door(args)))


def own_operator(where: Path | str, name: str) -> None:
    """Claim the operator's name at this terminal, or prove it there."""
    with Store.open(where, fallback=False) as store:
        held = account(store, name)
        if not sys.stdin.isatty():
            raise UsageError(
                f"the operator {name} "
                + ("has no password yet" if held is None else
                   "must be proved with its password") +
                f": start retro serve --operator {name} at a terminal")
        if held is not None:
            for _ in range(Limits.tries):
                if matches(getpass.getpass(f"{name}'s PASSWORD, to be the "
                                           f"operator: "), held.password):
                    return
                print("That is not its password.", file=sys.stderr)
            raise UsageError(f"{name} was not proved: it is somebody's "
                             f"name, and only its owner may be the operator")
        claim(store, name, hashed(new_password(name)))


def new_password(name: str) -> str:
    """A new password for the operator, typed twice at this terminal."""
    while True:
        password = getpass.getpass(f"A PASSWORD for {name}, the operator: ")
        trouble = password_trouble(password)
        if trouble is None and getpass.getpass("The same again: ") \
                != password:
            trouble = "The two were not the same."
        if trouble is None:
            return password
        print(trouble, file=sys.stderr)


def loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
