"""``factsentry keys``: make, list and revoke the gateway's API keys (a YAML file of hashes)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("keys", help="make, list and revoke the gateway's API keys")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="make a key for a tenant; the key is printed once, only its hash is kept")
    new.add_argument("--tenant", required=True, help="whose traffic the key carries (letters, digits, . _ -)")
    new.add_argument("--name", help="which key of the tenant this is (for rotation), e.g. prod-2026")
    new.add_argument("--models", help="comma-separated model names or globs the key may use (default: every model)")
    new.add_argument(
        "--policy-override",
        choices=["any", "stricter", "none"],
        help="what this tenant's x-factsentry-* headers may change (default: the gateway's setting)",
    )
    new.add_argument(
        "--no-factcheck", action="store_true", help="refuse POST /v1/factcheck and LiteLLM guardrail calls to this key"
    )
    new.set_defaults(func=run_new)

    listing = actions.add_parser("list", help="list the keys of a keys file (tenants, names, models; no secrets)")
    listing.set_defaults(func=run_list)

    revoke = actions.add_parser("revoke", help="remove keys by tenant, optionally only the one with --name")
    revoke.add_argument("--tenant", required=True, help="the tenant whose key(s) to revoke")
    revoke.add_argument("--name", help="only the key with this name (default: every key of the tenant)")
    revoke.set_defaults(func=run_revoke)

    for action in (new, listing, revoke):
        action.add_argument(
            "--file", type=Path, default=Path("keys.yaml"), help="the keys file (FACTSENTRY_KEYS_FILE of the gateway)"
        )


def run_new(args: argparse.Namespace) -> int:
    from factsentry.cli import UserError
    from gateway.auth import add_key
    from gateway.errors import ConfigError

    models = [m.strip() for m in args.models.split(",") if m.strip()] if args.models else None
    try:
        key, entry = add_key(
            args.file,
            args.tenant,
            name=args.name,
            models=models,
            policy_override=args.policy_override,
            factcheck=not args.no_factcheck,
        )
    except ConfigError as e:
        raise UserError(e.message) from e
    print(key)
    print(f"key for {entry.label} added to {args.file}; it is shown only now", file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    from factsentry.cli import UserError
    from gateway.auth import load_keys
    from gateway.errors import ConfigError

    try:
        keys = load_keys(args.file)
    except ConfigError as e:
        raise UserError(e.message) from e
    for key in keys.values():
        models = ",".join(key.models) if key.models else "*"
        print(f"{key.tenant}\t{key.name or '-'}\t{models}\t{key.policy_override or '-'}\tsha256:{key.sha256[:12]}")
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    from factsentry.cli import UserError
    from gateway.auth import load_keys, write_keys
    from gateway.errors import ConfigError

    try:
        keys = list(load_keys(args.file).values())
    except ConfigError as e:
        raise UserError(e.message) from e
    kept = [k for k in keys if not (k.tenant == args.tenant and (args.name is None or k.name == args.name))]
    if len(kept) == len(keys):
        which = f"{args.tenant}/{args.name}" if args.name else args.tenant
        raise UserError(f"no key of {which} in {args.file}")
    write_keys(args.file, kept)
    print(f"revoked {len(keys) - len(kept)} key(s); the gateway stops accepting them within seconds", file=sys.stderr)
    return 0
