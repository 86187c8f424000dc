#!/usr/bin/env python3
"""Per-call and per-padded-token cost of a MiniLM-L6-shaped encoder on a GPU (PyTorch eager,
random weights: the cost does not depend on them), to check the simulated device's presets
(bench/.../device/DeviceCost: H200 2 ms per call, 0.076 us fp16 / 0.198 us TF32 per padded token).

  python3 bench/device/encoder_cost.py [--layers 6]

Prints one line per precision and batch shape (rows x length): median ms per call over 20 calls
after 5 warm-up calls, and us per padded token; then a least-squares fit ms = a + b * tokens over
the shapes from 128 rows up. Uses transformers' BertModel when installed, else torch's own
TransformerEncoder with its fused fast path off (eager, as the measurement of issue 39).
"""
import argparse
import statistics
import sys

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--layers", type=int, default=6)
args = parser.parse_args()
assert torch.cuda.is_available(), "no CUDA device"
dev = torch.device("cuda")
print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(0)}, layers {args.layers}")


def model(dtype):
    try:
        from transformers import BertConfig, BertModel
        cfg = BertConfig(hidden_size=384, num_hidden_layers=args.layers, num_attention_heads=12,
                         intermediate_size=1536, max_position_embeddings=512, attn_implementation="eager")
        m, kind = BertModel(cfg), "transformers BertModel (eager attention)"
        call = lambda ids, mask: m(input_ids=ids, attention_mask=mask).last_hidden_state
    except Exception:  # no transformers: torch's encoder, fast path off
        if hasattr(torch.backends, "mha"):
            torch.backends.mha.set_fastpath_enabled(False)
        layer = torch.nn.TransformerEncoderLayer(384, 12, 1536, batch_first=True, activation="gelu")
        enc = torch.nn.TransformerEncoder(layer, args.layers, enable_nested_tensor=False)
        emb = torch.nn.Embedding(30522, 384)
        m, kind = torch.nn.ModuleList([emb, enc]), "torch TransformerEncoder (fast path off)"
        call = lambda ids, mask: enc(emb(ids), src_key_padding_mask=(mask == 0))
    m = m.to(dev).eval()
    if dtype == torch.float16:
        m = m.half()
    return m, call, kind


def timed(call, rows, length):
    ids = torch.randint(1000, 30000, (rows, length), device=dev)
    mask = torch.ones(rows, length, dtype=torch.long, device=dev)
    times = []
    with torch.inference_mode():
        for i in range(25):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            call(ids, mask)
            end.record()
            torch.cuda.synchronize()
            if i >= 5:
                times.append(start.elapsed_time(end))
    return statistics.median(times)


shapes = [(1, 128), (32, 128), (128, 128), (256, 128), (512, 128), (1024, 128), (2048, 128)]
for name, dtype, tf32 in (("fp16", torch.float16, False), ("tf32", torch.float32, True)):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    m, call, kind = model(dtype)
    print(f"{name}: {kind}")
    points = []
    for rows, length in shapes:
        ms = timed(call, rows, length)
        tokens = rows * length
        points.append((tokens, ms))
        print(f"  {name} {rows:5d} x {length}: {ms:8.3f} ms/call  {ms * 1000 / tokens:7.4f} us/padded token"
              f"  {tokens / ms * 1000 / 1e6:6.2f}M tokens/s")
    fit = [(t, ms) for t, ms in points if t >= 128 * 128]
    n = len(fit)
    mt, mm = sum(t for t, _ in fit) / n, sum(ms for _, ms in fit) / n
    b = sum((t - mt) * (ms - mm) for t, ms in fit) / sum((t - mt) ** 2 for t, _ in fit)
    a = mm - b * mt
    print(f"  {name} fit (>= 128 rows): {a:.3f} ms per call + {b * 1000:.4f} us per padded token")
    del m
    torch.cuda.empty_cache()
sys.stdout.flush()
