"""Finding model folders, never fetching behind the user's back.

A model is named by a path or by a hub name (``roberta-large``, ``Unbabel/wmt22-comet-da``). The folder is
looked for in this order, and the first that exists is used:

1. the name itself, if it is a directory (``model="/models/minilm"``);
2. ``$NLGMETRICS_MODELS/<name>`` (a folder of model folders; ``/`` in a hub name may also be written ``--``);
3. the Hugging Face cache layout (``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else ``~/.cache/huggingface/hub``):
   ``models--<org>--<name>/snapshots/<revision>/``, the revision ``refs/main`` points to (or the only one);
4. a download with ``huggingface_hub.snapshot_download`` — only when the caller passes ``allow_download=True``
   or sets ``NLGMETRICS_ALLOW_DOWNLOAD=1``, and never for a model on the list of gated or non-commercial
   checkpoints unless its name is given in ``NLGMETRICS_ALLOW_DOWNLOAD`` itself.

Anything else is a ``FileNotFoundError`` that names every place looked at.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> os.makedirs(os.path.join(folder, "tiny"))
>>> find_model(os.path.join(folder, "tiny")).name
'tiny'
>>> os.environ["NLGMETRICS_MODELS"] = folder
>>> find_model("tiny").name
'tiny'
>>> del os.environ["NLGMETRICS_MODELS"]
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import List, Optional

__all__ = ["find_model", "models_folder", "hub_cache", "weights_fingerprint", "GATED"]

#: Checkpoints whose licence or gate means a user must have agreed to terms (CC BY-NC-SA, gated on the hub):
#: never downloaded on a general ``allow_download``; name them in ``NLGMETRICS_ALLOW_DOWNLOAD`` to allow.
GATED = frozenset({
    "Unbabel/wmt22-cometkiwi-da", "Unbabel/wmt23-cometkiwi-da-xl", "Unbabel/wmt23-cometkiwi-da-xxl",
    "Unbabel/XCOMET-XL", "Unbabel/XCOMET-XXL", "Unbabel/wmt22-unite-da",
})


def models_folder() -> Optional[Path]:
    """``$NLGMETRICS_MODELS`` as a path (None when unset)."""
    value = os.environ.get("NLGMETRICS_MODELS")
    return Path(value).expanduser() if value else None


def hub_cache() -> Path:
    """The Hugging Face hub cache folder (``HF_HUB_CACHE``, ``HF_HOME/hub`` or ``~/.cache/huggingface/hub``)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    return Path("~/.cache/huggingface/hub").expanduser()


def _hub_snapshot(name: str, cache: Path) -> Optional[Path]:
    repo = cache / ("models--" + name.replace("/", "--"))
    snapshots = repo / "snapshots"
    if not snapshots.is_dir():
        return None
    main = repo / "refs" / "main"
    if main.is_file():
        revision = main.read_text(encoding="utf-8").strip()
        if (snapshots / revision).is_dir():
            return snapshots / revision
    found = sorted(path for path in snapshots.iterdir() if path.is_dir())
    return found[0] if len(found) == 1 else None


def _download_allowed(name: str, allow_download: bool) -> bool:
    setting = os.environ.get("NLGMETRICS_ALLOW_DOWNLOAD", "")
    named = name in {part.strip() for part in setting.split(",")}
    if name in GATED:
        return named
    return allow_download or named or setting.strip() in ("1", "true", "yes")


def find_model(name: str, *, allow_download: bool = False, what: str = "model") -> Path:
    """The folder of model ``name`` (see the module docstring for where it is looked for).

    ``what`` names the kind of model in the error (``"BERTScore model"``, ``"COMET checkpoint"``).
    """
    if not isinstance(name, (str, os.PathLike)) or not str(name).strip():
        raise TypeError(f"{what} must be a path or a model name (str), got {name!r}")
    name = os.fspath(name)
    looked: List[str] = []
    direct = Path(name).expanduser()
    if direct.is_dir():
        return direct
    looked.append(str(direct))
    folder = models_folder()
    if folder is not None:
        for candidate in (folder / name, folder / name.replace("/", "--"), folder / name.split("/")[-1]):
            if candidate.is_dir():
                return candidate
        looked.append(f"$NLGMETRICS_MODELS/{name}")
    cache = hub_cache()
    snapshot = _hub_snapshot(name, cache)
    if snapshot is not None:
        return snapshot
    looked.append(str(cache / ("models--" + name.replace("/", "--"))))
    if _download_allowed(name, allow_download):
        try:
            from huggingface_hub import snapshot_download
        except ImportError:
            raise FileNotFoundError(f"{what} {name!r} not found (looked in {', '.join(looked)}) and downloading "
                                    "needs huggingface_hub (pip install huggingface_hub)") from None
        return Path(snapshot_download(name))
    gated = " (gated / non-commercial: name it in NLGMETRICS_ALLOW_DOWNLOAD to allow a download)" if name in GATED else ""
    raise FileNotFoundError(f"{what} {name!r} not found: looked in {', '.join(looked)}; give a folder path, set "
                            f"NLGMETRICS_MODELS to a folder of models, or pass allow_download=True{gated}")


def weights_fingerprint(*paths: Path) -> str:
    """A short SHA-256 of files (weights, config): what a signature names so a number can be traced to its model.

    Hashes are remembered beside the file's size and modification time in ``~/.cache/nlgmetrics/hashes.json``
    (``NLGMETRICS_CACHE``), so a 2 GB checkpoint is read once, not on every call.
    """
    digest = hashlib.sha256()
    for path in paths:
        digest.update(_file_hash(Path(path)).encode())
    return digest.hexdigest()[:12]


def _hash_cache_file() -> Path:
    base = os.environ.get("NLGMETRICS_CACHE")
    return (Path(base).expanduser() if base else Path("~/.cache/nlgmetrics").expanduser()) / "hashes.json"


def _file_hash(path: Path) -> str:
    stat = path.stat()
    key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    store = _hash_cache_file()
    try:
        known = json.loads(store.read_text(encoding="utf-8"))
        if not isinstance(known, dict):
            known = {}
    except (OSError, ValueError):
        known = {}
    if isinstance(known.get(key), str):
        return known[key]
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    value = digest.hexdigest()
    known[key] = value
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        tmp = store.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(known), encoding="utf-8")
        os.replace(tmp, store)
    except OSError:
        pass  # a read-only home: the hash is simply computed again next time
    return value
