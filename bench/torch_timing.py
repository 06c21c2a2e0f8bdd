"""Times a PyTorch call the way kwb's timer times a kernel, so that the two compare like for like.

kwb flushes L2 by writing a buffer twice its size and reading it back (no dirty line of the flush
is left to write back during the sample), queues each batch of (flush, start event, launch, end
event) behind a spin kernel so that the GPU runs the batch back to back, never waiting on the
host, and subtracts the median of empty event pairs timed after the same flush (a quarter as many
as samples) from every sample. A Python loop is slower than a 5 us kernel: without the hold, the GPU would
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
    words = flush.view(torch.int32)
    times, empty = [], []
    while len(times) < samples:
        count = min(BATCH, samples - len(times))
        pairs = count + (count + 3) // 4
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(pairs)]
        torch.cuda._sleep(_HOLD_CYCLES)
        for k, (start, end) in enumerate(events):
            rc = cudart.cudaMemsetAsync(ctypes.c_void_p(flush.data_ptr()), 0,
                                        ctypes.c_size_t(flush.numel()), stream)
            if rc != 0:
                raise RuntimeError(f"cudaMemsetAsync failed with error {rc}")
            words.max()  # reads the flush back: its lines leave L2 clean
            start.record()
            if k < count:
                fn()
            end.record()
        torch.cuda.synchronize()
        elapsed = [start.elapsed_time(end) * 1e-3 for start, end in events]
        times += elapsed[:count]
        empty += elapsed[count:]
    overhead = statistics.median(empty)
    return statistics.median(max(t - overhead, 0.0) for t in times)
