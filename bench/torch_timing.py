"""Times a PyTorch call the way kwb's timer times a kernel, so that the two compare like for like.

kwb flushes L2 with cudaMemsetAsync over twice its size, and queues each batch of (flush, start
event, launch, end event) behind a spin kernel so that the GPU runs the batch back to back, never
waiting on the host. A Python loop is slower than a 5 us kernel: without the hold, the GPU would
idle between samples and small sizes would measure the host, not the kernel.
"""
import ctypes
import statistics

import torch

BATCH = 32
_HOLD_CYCLES = 20_000_000  # ~10 ms at H100 clocks: longer than Python takes to queue a batch


def _cudart():
    for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise RuntimeError("libcudart not found: put the CUDA toolkit's lib folder on LD_LIBRARY_PATH")


def median_seconds(fn, samples=100):
    """Median CUDA-event time of fn() with L2 flushed before each sample, as kwb measures."""
    cudart = _cudart()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    while len(times) < samples:
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(min(BATCH, samples - len(times)))]
        torch.cuda._sleep(_HOLD_CYCLES)
        for start, end in events:
            rc = cudart.cudaMemsetAsync(ctypes.c_void_p(flush.data_ptr()), 0,
                                        ctypes.c_size_t(flush.numel()), stream)
            if rc != 0:
                raise RuntimeError(f"cudaMemsetAsync failed with error {rc}")
            start.record()
            fn()
            end.record()
        torch.cuda.synchronize()
        times += [start.elapsed_time(end) * 1e-3 for start, end in events]
    return statistics.median(times)
