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


def failed_install(r: random.Random) -> str:
    """pip building flash-attn from source on a machine without the CUDA toolkit."""
    lines = [
        "$ pip install -r requirements.txt",
        "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu121",
    ]
    pkgs = [("torch", "2.2.1+cu121", 2200.7), ("transformers", "4.38.2", 8.5), ("accelerate", "0.27.2", 0.3),
            ("datasets", "2.18.0", 0.5), ("sentencepiece", "0.2.0", 1.3), ("einops", "0.7.0", 0.04),
            ("ninja", "1.11.1.1", 0.3), ("packaging", "23.2", 0.05), ("safetensors", "0.4.2", 1.3),
            ("tokenizers", "0.15.2", 3.6), ("huggingface-hub", "0.21.4", 0.35), ("numpy", "1.26.4", 18.0)]
    for name, ver, mb in pkgs:
        lines.append(f"Collecting {name}=={ver.split('+')[0]}")
        wheel = f"{name.replace('-', '_')}-{ver}-cp311-cp311-manylinux_2_17_x86_64.whl"
        lines.append(f"  Downloading {wheel} ({mb:.1f} MB)")
        done = mb
        for _ in range(r.randint(1, 3)):
            lines.append(f"     ---------------------------------------- {done:.1f}/{mb:.1f} MB "
                         f"{r.uniform(20, 90):.1f} MB/s eta 0:00:00")
    lines += [
        "Collecting flash-attn==2.5.6",
        "  Downloading flash_attn-2.5.6.tar.gz (2.5 MB)",
        "     ---------------------------------------- 2.5/2.5 MB 61.2 MB/s eta 0:00:00",
        "  Preparing metadata (setup.py) ... done",
        "Building wheels for collected packages: flash-attn",
        "  Building wheel for flash-attn (setup.py) ... error",
        "  error: subprocess-exited-with-error",
        "  ",
        "  × python setup.py bdist_wheel did not run successfully.",
        "  │ exit code: 1",
        "  ╰─> [23 lines of output]",
        "      fatal: not a git repository (or any of the parent directories): .git",
        "      ",
        "      torch.__version__  = 2.2.1+cu121",
        "      ",
        "      ",
        "      Traceback (most recent call last):",
        '        File "<string>", line 2, in <module>',
        '        File "<pip-setuptools-caller>", line 34, in <module>',
        '        File "/tmp/pip-install-8x2k1m/flash-attn_5e0c/setup.py", line 163, in <module>',
        "          CUDAExtension(",
        '        File "/opt/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1077, in CUDAExtension',
        "          library_dirs += library_paths(cuda=True)",
        '        File "/opt/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1204, in library_paths',
        "          if (not os.path.exists(_join_cuda_home(lib_dir)) and",
        '        File "/opt/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 2419, in _join_cuda_home',
        "          raise OSError('CUDA_HOME environment variable is not set. '",
        "      OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
        "      [end of output]",
        "  ",
        "  note: This error originates from a subprocess, and is likely not a problem with pip.",
        "  ERROR: Failed building wheel for flash-attn",
        "  Running setup.py clean for flash-attn",
        "Failed to build flash-attn",
        "ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects",
    ]
    return "\n".join(lines) + "\n"


def pytest_cuda(r: random.Random) -> str:
    """A pytest run whose GPU test hits a device-side assert."""
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.10.13, pytest-8.0.2, pluggy-1.4.0 -- /opt/venv/bin/python",
        "cachedir: .pytest_cache",
        "rootdir: /builds/ml/segmentation",
        "configfile: pyproject.toml",
        "plugins: xdist-3.5.0, cov-4.1.0",
        "collected 412 items",
        "",
    ]
    modules = ["tests/test_augment.py", "tests/test_dataset.py", "tests/test_losses.py", "tests/test_metrics.py",
               "tests/test_model.py", "tests/test_schedulers.py", "tests/test_export.py"]
    subjects = ["flip", "crop", "resize", "normalize", "mixup", "mask", "palette", "tiling", "dice", "iou",
                "boundary", "ohem", "warmup", "cosine", "onnx", "torchscript", "half", "channels_last"]
    counts = [r.randint(50, 65) for _ in modules]
    total = sum(counts)
    lines[lines.index("collected 412 items")] = f"collected {total} items"
    done = skipped = 0
    for m, count in zip(modules, counts):
        for i in range(count):
            done += 1
            dev = "cuda" if i % 2 else "cpu"
            name = f"test_{r.choice(subjects)}_{r.choice(subjects)}_{i}[{dev}]"
            if m == "tests/test_losses.py" and i == 17:
                name = "test_focal_loss_ignores_void[cuda]"
                outcome = "FAILED"
            else:
                outcome = "SKIPPED (no TensorRT)" if r.random() < 0.03 else "PASSED"
            skipped += outcome.startswith("SKIPPED")
            lines.append(f"{m}::{name} {outcome:<8} [{done * 100 // total:3d}%]")
    lines += [
        "",
        "=================================== FAILURES ===================================",
        "_____________________ test_focal_loss_ignores_void[cuda] ______________________",
        "",
        "device = 'cuda'",
        "",
        "    @pytest.mark.parametrize(\"device\", [\"cpu\", \"cuda\"])",
        "    def test_focal_loss_ignores_void(device):",
        "        logits = torch.randn(4, 21, 64, 64, device=device)",
        "        target = torch.randint(0, 21, (4, 64, 64), device=device)",
        "        target[:, :8] = 255  # void label",
        ">       loss = focal_loss(logits, target, ignore_index=-100)",
        "",
        "tests/test_losses.py:88: ",
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
        "seg/losses.py:41: in focal_loss",
        "    logpt = -F.cross_entropy(logits, target, reduction=\"none\", ignore_index=ignore_index)",
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
        "",
        "E       RuntimeError: CUDA error: device-side assert triggered",
        "E       CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace "
        "below might be incorrect.",
        "E       For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        "E       Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        "",
        "/opt/venv/lib/python3.10/site-packages/torch/nn/functional.py:3059: RuntimeError",
        "----------------------------- Captured stderr call -----------------------------",
    ]
    for b in range(3):
        lines.append(f"/opt/conda/conda-bld/pytorch_1708025842427/work/aten/src/ATen/native/cuda/Loss.cu:250: "
                     f"nll_loss2d_forward_kernel: block: [{r.randint(0, 63)},0,0], thread: [{r.randint(0, 31)},0,0] "
                     f"Assertion `t >= 0 && t < n_classes` failed.")
    lines += [
        "=========================== short test summary info ============================",
        "FAILED tests/test_losses.py::test_focal_loss_ignores_void[cuda] - RuntimeError: CUDA error: device-side "
        "assert triggered",
        f"================= 1 failed, {total - 1 - skipped} passed, {skipped} skipped in 94.27s (0:01:34) "
        "=================",
    ]
    return "\n".join(lines) + "\n"


def nccl_timeout(r: random.Random) -> str:
    """torchrun on 4 GPUs: rank 3 stalls in the data loader, the others time out in all-reduce."""
    lines = [
        "W0314 02:11:40.118000 140213 torch/distributed/run.py:757] ",
        "W0314 02:11:40.118000 140213 torch/distributed/run.py:757] *****************************************",
        "W0314 02:11:40.118000 140213 torch/distributed/run.py:757] Setting OMP_NUM_THREADS environment variable "
        "for each process to be 1 in default, to avoid your system being overloaded, please further tune the "
        "variable for optimal performance in your application as needed. ",
        "W0314 02:11:40.118000 140213 torch/distributed/run.py:757] *****************************************",
    ]
    for rank in range(4):
        lines.append(f"[rank{rank}]: NCCL version 2.19.3+cuda12.3, world size 4, local rank {rank}, device cuda:{rank}")
    step = 0
    t = 0.0
    for _ in range(1500):
        step += 1
        t += r.uniform(0.55, 0.7)
        rank = r.randint(0, 3)
        lines.append(f"[rank{rank}]: 2026-03-14 02:{12 + int(t) // 60 % 47:02d}:{int(t) % 60:02d} | step {step:5d} "
                     f"| loss {3.2 * (0.9995 ** step) + r.uniform(-0.03, 0.03):.4f} | tok/s {r.randint(30500, 33200)} "
                     f"| mem {r.uniform(61.0, 62.5):.1f}G")
    lines.append("[rank3]: 2026-03-14 02:28:44 | data: shard 1187 of /mnt/corpus read slowly (412.8s), retrying")
    for rank in (0, 1, 2):
        seq = 48213
        lines.append(
            f"[rank{rank}]:[E314 02:59:12.{r.randint(100000, 999999)} {r.randint(1000, 9999)} "
            f"ProcessGroupNCCL.cpp:563] [Rank {rank}] Watchdog caught collective operation timeout: "
            f"WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn=262144000, NumelOut=262144000, Timeout(ms)=1800000) "
            f"ran for 1800{r.randint(100, 999)} milliseconds before timing out.")
    for rank in (0, 1, 2):
        lines.append(
            f"[rank{rank}]:[E314 02:59:12.{r.randint(100000, 999999)} {r.randint(1000, 9999)} "
            f"ProcessGroupNCCL.cpp:577] [Rank {rank}] To avoid data inconsistency, we are taking the entire process down.")
    lines += [
        "W0314 02:59:14.512000 140213 torch/distributed/elastic/multiprocessing/api.py:851] Sending process 140290 "
        "closing signal SIGTERM",
        "E0314 02:59:15.020000 140213 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: -6) "
        "local_rank: 0 (pid: 140287) of binary: /opt/venv/bin/python",
        "Traceback (most recent call last):",
        '  File "/opt/venv/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "train.py FAILED",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2026-03-14_02:59:14",
        "  host      : gpu-node-07",
        "  rank      : 0 (local_rank: 0)",
        "  exitcode  : -6 (pid: 140287)",
        "  error_file: <N/A>",
        "  traceback : Signal 6 (SIGABRT) received by PID 140287",
        "============================================================",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "train-cudnn.log").write_text(train_cudnn(random.Random(7)))
    (OUT / "failed-install.log").write_text(failed_install(random.Random(11)))
    (OUT / "pytest-cuda.log").write_text(pytest_cuda(random.Random(13)))
    (OUT / "nccl-timeout.log").write_text(nccl_timeout(random.Random(17)))


if __name__ == "__main__":
    main()
