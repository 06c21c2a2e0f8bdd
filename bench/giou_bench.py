#!/usr/bin/env python3
"""GIoU loss benchmark: the write-up's PyTorch losses (eager per-sample loop, concat, padding,
torch.compile of padding), forward and forward + backward, against every kwb giou variant.

Run on a GPU host from the repository root, after building (preset sm90):
    python3 bench/giou_bench.py --kwb build/sm90/app/kwb

Shapes: B = 1024, M = 256 and B = 4096, M = 64, valid boxes per sample floor(|N(0, 3)|) clipped
to M, f32 preds and u8 targets as in the write-up. GPU times are medians of CUDA events with L2
flushed before each sample on both sides (torch_timing.py); "wall" is the host's time to issue
one call and wait for it. The last lines printed are a Markdown table for docs/PERFORMANCE.md.
"""
import argparse
import json
import statistics
import subprocess
import tempfile
import time

from torch_timing import median_seconds

SHAPES = [(1024, 256), (4096, 64)]
VARIANTS = [("per_sample", "off"), ("per_sample", "on"), ("concat", "off"), ("concat", "on"),
            ("padded", "off"), ("padded", "on"), ("fused", None), ("fused_conditional", None),
            ("fused_fwd_bwd", None)]
# The floor under every cold measurement: one block, one box, the L2 flushed before it.
FLOOR = ("fused", None, "batch=1", "boxes=1")


def generalized_box_iou(boxes1, boxes2):
    # The write-up's formula, loosely based on torchvision's.
    import torch
    epsilon = 1e-5
    area1 = (boxes1[..., 2] - boxes1[..., 0]) * (boxes1[..., 3] - boxes1[..., 1])
    area2 = (boxes2[..., 2] - boxes2[..., 0]) * (boxes2[..., 3] - boxes2[..., 1])
    lt = torch.max(boxes1[..., :2], boxes2[..., :2])
    rb = torch.min(boxes1[..., 2:], boxes2[..., 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = area1 + area2 - inter
    iou = inter / union.clamp(epsilon)
    lti = torch.min(boxes1[..., :2], boxes2[..., :2])
    rbi = torch.max(boxes1[..., 2:], boxes2[..., 2:])
    whi = (rbi - lti).clamp(min=0)
    areai = (whi[..., 0] * whi[..., 1]).clamp(epsilon)
    return iou - (areai - union) / areai


def loss_loop(pred, targets_list):
    total_boxes = 0
    loss_sum = 0.
    for i, targets in enumerate(targets_list):
        n = targets.shape[0]
        if n > 0:
            total_boxes += n
            loss_sum += generalized_box_iou(pred[i, :n], targets).sum()
    return loss_sum / max(total_boxes, 1)


def loss_concat(pred, targets_list):
    import torch
    all_targets = torch.concat(targets_list, dim=0)
    num_boxes = [t.shape[0] for t in targets_list]
    all_preds = torch.concat([pred[i, :n] for i, n in enumerate(num_boxes)], dim=0)
    return generalized_box_iou(all_targets, all_preds).sum() / max(sum(num_boxes), 1)


def loss_padding(pred, targets):
    import torch
    mask = (targets[..., 3] > 0).to(pred.dtype)
    total_boxes = mask.sum()
    masked_loss = generalized_box_iou(targets, pred) * mask
    return masked_loss.sum() / torch.clamp(total_boxes, 1)


def torch_inputs(batch, boxes, seed=0):
    import numpy as np
    import torch
    rng = np.random.default_rng(seed)
    counts = np.clip(np.floor(np.abs(rng.normal(0, 3, batch))).astype(np.int64), 0, boxes)
    targets = torch.zeros((batch, boxes, 4), dtype=torch.uint8)
    for b, n in enumerate(counts):
        top_left = torch.randint(0, 255, (n, 2))
        bottom_right = torch.clamp(top_left + torch.randint(1, 256, (n, 2)), 0, 255)
        targets[b, :n] = torch.cat((top_left, bottom_right), dim=1).to(torch.uint8)
    corner = torch.rand((batch, boxes, 2)) * 192
    pred = torch.cat((corner, corner + 1 + torch.rand((batch, boxes, 2)) * 95), dim=-1)
    targets = targets.cuda()
    targets_list = [targets[b, :n].clone() for b, n in enumerate(counts)]
    return pred.cuda(), targets, targets_list


def wall_seconds(fn, calls=5):
    import torch
    flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size,
                        dtype=torch.uint8, device="cuda")
    times = []
    for _ in range(calls):
        flush.zero_()
        torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def torch_rows(batch, boxes, samples):
    import torch
    pred, targets, targets_list = torch_inputs(batch, boxes)
    compiled = torch.compile(loss_padding)
    cases = [("torch loop", lambda p: loss_loop(p, targets_list), 3),
             ("torch concat", lambda p: loss_concat(p, targets_list), samples),
             ("torch padding", lambda p: loss_padding(p, targets), samples),
             ("torch.compile(padding)", lambda p: compiled(p, targets), samples)]
    rows = []
    for name, loss, n in cases:
        p = pred.clone().requires_grad_(True)

        def forward():
            with torch.no_grad():
                loss(p)

        def forward_backward():
            p.grad = None
            loss(p).backward()

        forward_backward()  # compiles the backward where it applies
        rows.append({"name": name, "fwd": median_seconds(forward, n),
                     "fwd_wall": wall_seconds(forward), "fwd_bwd": median_seconds(forward_backward, n),
                     "fwd_bwd_wall": wall_seconds(forward_backward), "launches": None})
        print(f"B={batch} M={boxes} {name}: fwd {rows[-1]['fwd'] * 1e6:.1f} us, "
              f"fwd+bwd {rows[-1]['fwd_bwd'] * 1e6:.1f} us", flush=True)
    return rows


def kwb_rows(args, batch, boxes):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for variant, graph, *shape in VARIANTS + [FLOOR]:
            cmd = [args.kwb, "--db", f"{tmp}/bench.sqlite", "--json", "run", "giou", variant,
                   *(shape or [f"batch={batch}", f"boxes={boxes}"]), "--budget", str(args.budget)]
            if graph:
                cmd.append(f"graph={graph}")
            run = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                            text=True).stdout)["runs"][0]
            if run["status"] != "ok":
                raise SystemExit(f"kwb giou {variant}: {run['error']}")
            metrics = {m["name"]: m["value"] for m in run["metrics"] if not m.get("kernel")}
            name = f"kwb {variant}" + (" graph" if graph == "on" else "") + \
                (" (B = 1, M = 1: the floor)" if shape else "")
            time_key = "fwd_bwd" if variant == "fused_fwd_bwd" else "fwd"
            rows.append({"name": name, time_key: run["time_s"]["median"],
                         time_key + "_wall": metrics.get("host.wall_per_call"),
                         "launches": metrics.get("host.launches_per_call"),
                         "kernels": run["derived"].get("kernels_per_call")})
            print(f"B={batch} M={boxes} {name}: {run['time_s']['median'] * 1e6:.1f} us, "
                  f"wall {metrics.get('host.wall_per_call', 0) * 1e6:.1f} us", flush=True)
    return rows


def us(value):
    if value is None:
        return "-"
    return f"{value * 1e3:.1f} ms" if value >= 1e-3 else f"{value * 1e6:.1f} us"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kwb", default="build/sm90/app/kwb")
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--torch-samples", type=int, default=30)
    args = parser.parse_args()

    tables = []
    for batch, boxes in SHAPES:
        rows = torch_rows(batch, boxes, args.torch_samples) + kwb_rows(args, batch, boxes)
        tables.append((batch, boxes, rows))

    for batch, boxes, rows in tables:
        by = {r["name"]: r for r in rows}
        compiled = by["torch.compile(padding)"]
        fused = by["kwb fused"]
        fwd_bwd = by["kwb fused_fwd_bwd"]
        print(f"\nB = {batch}, M = {boxes}\n")
        print("| implementation | forward (GPU) | forward (wall) | fwd + bwd (GPU) | "
              "fwd + bwd (wall) | launches | kernels |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            launches = "-" if r.get("launches") is None else f"{r['launches']:.0f}"
            print(f"| {r['name']} | {us(r.get('fwd'))} | {us(r.get('fwd_wall'))} | "
                  f"{us(r.get('fwd_bwd'))} | {us(r.get('fwd_bwd_wall'))} | {launches} | "
                  f"{r.get('kernels') or '-'} |")
        print(f"\ncompiled padding forward / kwb fused: {compiled['fwd'] / fused['fwd']:.1f}x "
              f"(target 4x); compiled forward + backward / kwb fused_fwd_bwd: "
              f"{compiled['fwd_bwd'] / fwd_bwd['fwd_bwd']:.1f}x (target 40x)")


if __name__ == "__main__":
    main()
