# Tangled from literate/accounts.md: edit the chapter, not this file, then run `retro tangle`.
"""Accounts: names claimed with a password, proved by it or by a key.

Tangled from literate/accounts.md, which explains it.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import asdict, dataclass, replace
from typing import Any


COST = {"n": 2 ** 14, "r": 8, "p": 1}  # 16 MB and about 50 ms a try
MEMORY = 64 * 2 ** 20  # what a stored cost may ask for, at most
SHORTEST, LONGEST = 8, 72  # a password's length, in characters


def hashed(password: str, salt: bytes | None = None, **cost: int) -> str:
    """The salted scrypt hash of `password`, as the store keeps it."""
    cost = {**COST, **cost}
    salt = os.urandom(16) if salt is None else salt
    digest = scrypt(password, salt, **cost)
    return (f"scrypt${cost['n']}${cost['r']}${cost['p']}${salt.hex()}$"
            f"{digest.hex()}")


def scrypt(password: str, salt: bytes, *, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8", "surrogatepass"),
                          salt=salt, n=n, r=r, p=p, maxmem=MEMORY, dklen=32)


def matches(password: str, stored: str) -> bool:
    """Whether `password` is the one `stored` was hashed from."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        made = scrypt(password, bytes.fromhex(salt), n=int(n), r=int(r),
                      p=int(p))
    except (ValueError, TypeError, MemoryError, AttributeError):
        return False  # not a hash this Retro can check
    return kind == "scrypt" and hmac.compare_digest(made.hex(), digest)


def password_trouble(password: str) -> str | None:
    """What is wrong with `password` as a new one; None if nothing."""
    if not SHORTEST <= len(password) <= LONGEST:
        return (f"A PASSWORD is {SHORTEST} to {LONGEST} characters; that "
                f"one has {len(password)}.")
    if len(set(password)) < 3:
        return "A PASSWORD needs at least three different characters."
    return None


@dataclass(frozen=True)
class Account:
    """A claimed name: how its owner proves it, and what happened to it."""

    name: str
    password: str  # the hash
    keys: tuple[str, ...] = ()  # public keys, "type base64"
    failures: int = 0  # wrong passwords since the owner last came in
    claimed: str = ""  # when, as ISO 8601


def account_key(name: str) -> str:
    return f"account:{name.lower()}"


def read_account(data: Any) -> Account | None:
    """The account stored as `data`; None if `data` is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) \
            or not isinstance(data.get("password"), str):
        return None
    keys, failures = data.get("keys", []), data.get("failures", 0)
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys) \
            or not isinstance(failures, int):
        return None
    return Account(data["name"], data["password"], tuple(keys), failures,
                   str(data.get("claimed", "")))


def account(store, name: str) -> Account | None:
    """`name`'s account, or None if nobody has claimed it."""
    data = store.get(account_key(name), None,
                     valid=lambda data: read_account(data) is not None)
    return None if data is None else read_account(data)


def put_account(store, held: Account) -> None:
    store.put(account_key(held.name), asdict(held) | {"keys": list(held.keys)})


def claim(store, name: str, password_hash: str) -> bool:
    """Give `name` to whoever chose this password; False if it is taken."""
    with store.transaction():
        if account(store, name) is not None:
            return False
        when = store.clock().isoformat(timespec="seconds")
        put_account(store, Account(name.lower(), password_hash, claimed=when))
    return True


def tried(store, name: str, proved: bool) -> int:
    """Count a try at `name`'s password. After a wrong one, how many
    there have been; after the right one, how many there were (they are
    forgotten)."""
    with store.transaction():
        held = account(store, name)
        if held is None:
            return 0
        count = 0 if proved else held.failures + 1
        if count != held.failures:
            put_account(store, replace(held, failures=count))
    return held.failures if proved else count


MOST_KEYS = 8


def add_key(store, name: str, key: str) -> str:
    """Register `key` to `name`; what to tell the player."""
    with store.transaction():
        held = account(store, name)
        if held is None:
            return "Only a claimed NAME can hold keys."
        if key in held.keys:
            return "That key is registered to you already."
        if len(held.keys) >= MOST_KEYS:
            return (f"You have {MOST_KEYS} keys already: KEYS FORGET one "
                    f"first.")
        put_account(store, replace(held, keys=held.keys + (key,)))
    return "The key is registered: ssh with it and no password is asked."


def forget_key(store, name: str, number: int) -> str:
    """Forget `name`'s key `number` (from 1); what to tell the player."""
    with store.transaction():
        held = account(store, name)
        if held is None or not 1 <= number <= len(held.keys):
            return f"There is no key {number}: KEYS lists them."
        keys = held.keys[:number - 1] + held.keys[number:]
        put_account(store, replace(held, keys=keys))
    return f"Key {number} is forgotten."


def key_list(held: Account | None) -> list[str]:
    """What KEYS prints."""
    if held is None or not held.keys:
        return ["No keys are registered to you. Over SSH, KEYS ADD registers "
                "the key your client offered; anywhere, KEYS ADD and the "
                "key's line registers that key."]
    return [f"{number}. {key[:40]}{'...' if len(key) > 40 else ''}"
            for number, key in enumerate(held.keys, 1)]
