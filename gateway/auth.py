"""API keys: who may call the gateway, as which tenant, for which models, within which policy limits.

Keys live in a YAML file (``FACTSENTRY_KEYS_FILE``), stored as SHA-256 hashes; the key itself is
shown once, by ``factsentry keys new``, and never written anywhere::

    keys:
      - tenant: acme-support           # whose traffic this is; results are readable by this tenant only
        name: acme-prod-2026           # which key (for rotation); optional
        sha256: 5f2b…                  # hash of the key
        models: [gpt-4o-mini, "support-*"]   # glob patterns; omitted: every model
        policy_override: none          # what this tenant's x-factsentry-* headers may change; omitted: the gateway's
        factcheck: true                # may POST /v1/factcheck (default true)

Clients send the key as the OpenAI SDK does: ``Authorization: Bearer <key>``. Without a keys file
the gateway serves anyone who can reach it, and ``factsentry gateway`` refuses to listen beyond
loopback that way unless ``FACTSENTRY_ALLOW_UNAUTHENTICATED`` says so.

The file is re-read when it changes (checked at most every ``RELOAD_EVERY_S``): adding or revoking a
key needs no restart. A file that no longer parses keeps the keys that were loaded, with an error logged.
"""

from __future__ import annotations

import fnmatch
import hashlib
import hmac
import ipaddress
import logging
import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gateway.errors import ConfigError, Forbidden, Unauthorized

log = logging.getLogger(__name__)

KEY_PREFIX = "fsk-"
RELOAD_EVERY_S = 2.0
Override = Literal["any", "stricter", "none"]


def new_key() -> str:
    """A fresh key: 256 random bits, so a plain SHA-256 is a safe way to store it."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiKey(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tenant: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    name: str | None = Field(default=None, max_length=100)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    models: tuple[str, ...] | None = None
    policy_override: Override | None = None
    factcheck: bool = True

    @field_validator("models")
    @classmethod
    def _some_models(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None and not value:
            raise ValueError("an empty list allows no model: omit 'models' to allow every model")
        return value

    def allows(self, model: str) -> bool:
        return self.models is None or any(fnmatch.fnmatchcase(model, pattern) for pattern in self.models)

    @property
    def label(self) -> str:
        return f"{self.tenant}/{self.name}" if self.name else self.tenant


class KeysFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keys: list[ApiKey] = []


def load_keys(path: Path) -> dict[str, ApiKey]:
    """The keys of ``path`` by hash; :class:`ConfigError` with the reason if the file cannot be used."""
    try:
        raw = yaml.safe_load(path.read_text()) or {}
        parsed = KeysFile.model_validate(raw)
    except OSError as e:
        raise ConfigError(f"cannot read keys file {path}: {e.strerror}") from e
    except yaml.YAMLError as e:
        raise ConfigError(f"invalid keys file {path}: not YAML ({str(e).splitlines()[0]})") from e
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ConfigError(f"invalid keys file {path}: {where}: {first['msg']}") from e
    by_hash: dict[str, ApiKey] = {}
    for key in parsed.keys:
        if key.sha256 in by_hash:
            raise ConfigError(f"invalid keys file {path}: the key of {key.label} is listed twice")
        by_hash[key.sha256] = key
    return by_hash


class KeyRing:
    """The keys in force; ``None`` as the path means authentication is off."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._keys: dict[str, ApiKey] = load_keys(path) if path else {}
        self._mtime = self._stat()
        self._checked = time.monotonic()

    @property
    def enabled(self) -> bool:
        return self.path is not None

    def __len__(self) -> int:
        return len(self._keys)

    def _stat(self) -> float | None:
        try:
            return self.path.stat().st_mtime if self.path else None
        except OSError:
            return None

    def _maybe_reload(self) -> None:
        now = time.monotonic()
        if self.path is None or now - self._checked < RELOAD_EVERY_S:
            return
        self._checked = now
        mtime = self._stat()
        if mtime == self._mtime:
            return
        try:
            self._keys = load_keys(self.path)
            log.warning("keys file %s reloaded: %d key(s)", self.path, len(self._keys))
        except ConfigError as e:
            log.error("%s; the %d key(s) loaded before stay in force", e.message, len(self._keys))
        self._mtime = mtime

    def authenticate(self, headers: Mapping[str, str]) -> ApiKey | None:
        """The key of a request (``None`` when authentication is off); :class:`Unauthorized` otherwise."""
        if not self.enabled:
            return None
        self._maybe_reload()
        scheme, _, token = headers.get("authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized(
                "you must provide an API key in an 'Authorization: Bearer <key>' header", code="missing_api_key"
            )
        key = self._keys.get(hash_key(token))
        if key is None:
            raise Unauthorized("incorrect API key provided", code="invalid_api_key")
        return key


def check_model(key: ApiKey | None, model: str) -> None:
    if key is not None and not key.allows(model):
        raise Forbidden(
            f"the API key of tenant {key.tenant!r} may not use model {model!r}", code="model_not_allowed", param="model"
        )


def check_token(headers: Mapping[str, str], expected: str) -> bool:
    scheme, _, token = headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), expected.encode())


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, keys_file: Path | None, allow_unauthenticated: bool) -> None:
    """Refuse to serve beyond loopback without keys, unless the operator opted out explicitly."""
    if keys_file is None and not allow_unauthenticated and not is_loopback(host):
        raise ConfigError(
            f"refusing to listen on {host} without API keys: anyone who reaches the port would spend your "
            "model keys. Set FACTSENTRY_KEYS_FILE (see `factsentry keys new`), or "
            "FACTSENTRY_ALLOW_UNAUTHENTICATED=true if a network boundary already guards it"
        )


def add_key(
    path: Path,
    tenant: str,
    *,
    name: str | None = None,
    models: list[str] | None = None,
    policy_override: Override | None = None,
    factcheck: bool = True,
) -> tuple[str, ApiKey]:
    """Make a key, append its hash to ``path`` (created 0600) and return the key, shown only now."""
    current = list(load_keys(path).values()) if path.exists() else []
    if name and any(k.tenant == tenant and k.name == name for k in current):
        raise ConfigError(f"tenant {tenant!r} already has a key named {name!r}")
    key = new_key()
    try:
        entry = ApiKey(
            tenant=tenant,
            name=name,
            sha256=hash_key(key),
            models=tuple(models) if models else None,
            policy_override=policy_override,
            factcheck=factcheck,
        )
    except ValidationError as e:
        first = e.errors()[0]
        raise ConfigError(f"bad {first['loc'][0] if first['loc'] else 'key'}: {first['msg']}") from e
    write_keys(path, [*current, entry])
    return key, entry


def write_keys(path: Path, keys: list[ApiKey]) -> None:
    """Replace ``path`` atomically, readable by its owner only."""
    entries: list[dict[str, Any]] = []
    for k in keys:
        entry = k.model_dump(mode="json", exclude_none=True)
        if entry.get("factcheck") is True:
            del entry["factcheck"]
        entries.append(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        yaml.safe_dump({"keys": entries}, f, sort_keys=False)
    os.replace(tmp, path)
