#!/usr/bin/env python3
"""Writes the example logs in examples/ (deterministic; rerun to refresh)."""
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "examples"


def train_cudnn(r: random.Random) -> str:
    lines = [
        "2026-03-14 09:12:01,114 INFO  launcher: python 3.11.7, torch 2.2.1+cu121, CUDA 12.1, cuDNN 8.9.2",
        "2026-03-14 09:12:01,115 INFO  launcher: 1 x NVIDIA A10G (24 GiB), driver 535.104.05",
        "2026-03-14 09:12:03,870 INFO  data: 1281167 training images, 50000 validation images",
        "2026-03-14 09:12:04,002 INFO  model: resnet50 with custom head, 25.6M parameters",
    ]
    t = 4.0
    step = 0
    for epoch in range(3):
        for _ in range(1000):
            step += 1
            t += r.uniform(0.18, 0.25)
            loss = 6.9 * (0.9993 ** step) + r.uniform(-0.05, 0.05)
            lines.append(
                f"2026-03-14 09:{12 + int(t) // 60 % 48:02d}:{int(t) % 60:02d},{r.randint(0, 999):03d} INFO  "
                f"train: epoch {epoch} step {step}/3000 loss={loss:.4f} lr={0.1 * (0.5 ** epoch):.4f} "
                f"throughput={r.uniform(410, 440):.1f} img/s"
            )
        lines.append(f"2026-03-14 09:4{epoch}:00,000 INFO  eval: epoch {epoch} top1={0.31 + 0.2 * epoch:.3f}")
        if epoch == 1:
            lines.append("2026-03-14 09:41:00,002 WARNING config: bn_eps read from overrides.yaml: 0.0")
    lines += [
        "Traceback (most recent call last):",
        '  File "/srv/train/main.py", line 211, in <module>',
        "    main(cfg)",
        '  File "/srv/train/main.py", line 187, in main',
        "    loss = criterion(model(images), labels)",
        '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1511, in _wrapped_call_impl',
        "    return self._call_impl(*args, **kwargs)",
        '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py", line 171, in forward',
        "    return F.batch_norm(",
        "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0",
        "2026-03-14 09:41:07,551 ERROR launcher: worker 0 exited with code 1",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "train-cudnn.log").write_text(train_cudnn(random.Random(7)))


if __name__ == "__main__":
    main()
