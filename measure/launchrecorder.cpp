#include "measure/launchrecorder.h"

#include <algorithm>
#include <climits>

#include <cupti.h>

#include "core/kernelname.h"
#include "kernels/cudacheck.h"
#include "measure/cupticheck.h"

namespace kwb {
namespace {

// CUDA 13 compiles <<<...>>> into __cudaLaunchKernel(cudaKernel_t, grid, block, args, shared,
// stream); CUPTI passes its arguments in this order, and the occupancy API accepts the
// cudaKernel_t in place of the function.
struct LaunchKernelV13Params {
  cudaKernel_t kernel;
  dim3 gridDim;
  dim3 blockDim;
  void** args;
  std::size_t sharedMem;
  cudaStream_t stream;
};

constexpr CUpti_CallbackId kLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
};

}  // namespace

LaunchRecorder::LaunchRecorder() {
  KWB_CUPTI_CHECK(cuptiSubscribe(&subscriber_, &LaunchRecorder::onCallback, this));
  try {
    for (CUpti_CallbackId id : kLaunches)
      KWB_CUPTI_CHECK(cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API, id));
  } catch (...) {
    cuptiUnsubscribe(subscriber_);
    throw;
  }
}

LaunchRecorder::~LaunchRecorder() {
  cuptiUnsubscribe(subscriber_);
}

std::vector<KernelLaunch> LaunchRecorder::launches() const {
  std::lock_guard lock(mutex_);
  return launches_;
}

void CUPTIAPI LaunchRecorder::onCallback(void* self, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId id, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || info->callbackSite != CUPTI_API_ENTER) return;
  KernelLaunch launch;
  launch.name = shortKernelName(info->symbolName ? info->symbolName : "kernel");
  switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000: {
      const auto* p = static_cast<const LaunchKernelV13Params*>(info->functionParams);
      launch.function = reinterpret_cast<const void*>(p->kernel);
      launch.grid = p->gridDim;
      launch.block = p->blockDim;
      launch.sharedBytes = p->sharedMem;
      break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
      const auto* p = static_cast<const cudaLaunchKernel_v7000_params*>(info->functionParams);
      launch.function = p->func;
      launch.grid = p->gridDim;
      launch.block = p->blockDim;
      launch.sharedBytes = p->sharedMem;
      break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
      const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(info->functionParams);
      launch.function = p->func;
      launch.grid = p->config->gridDim;
      launch.block = p->config->blockDim;
      launch.sharedBytes = p->config->dynamicSmemBytes;
      break;
    }
    default: return;
  }
  auto* recorder = static_cast<LaunchRecorder*>(self);
  std::lock_guard lock(recorder->mutex_);
  recorder->launches_.push_back(std::move(launch));
}

double theoreticalOccupancy(const KernelLaunch& launch, int maxThreadsPerSm) {
  const int threads = static_cast<int>(launch.block.x * launch.block.y * launch.block.z);
  int blocks = 0;
  KWB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, launch.function, threads,
                                                               launch.sharedBytes));
  const int warpsPerBlock = (threads + 31) / 32;
  return 100.0 * blocks * warpsPerBlock / (maxThreadsPerSm / 32);
}

WaveLaunch waveLaunch(const KernelLaunch& launch, const DeviceInfo& device) {
  const int threads = static_cast<int>(launch.block.x * launch.block.y * launch.block.z);
  WaveLaunch out;
  out.grid = static_cast<long long>(launch.grid.x) * launch.grid.y * launch.grid.z;
  out.block = threads;
  out.smCount = device.smCount;
  KWB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out.residentPerSm, launch.function,
                                                               threads, launch.sharedBytes));
  // Each resource's own bound, split as the occupancy calculator splits them.
  cudaFuncAttributes attributes{};
  KWB_CUDA_CHECK(cudaFuncGetAttributes(&attributes, launch.function));
  const auto attribute = [&](cudaDeviceAttr which) {
    int value = 0;
    KWB_CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device.ordinal));
    return value;
  };
  const int warps = (threads + 31) / 32;
  const int regsPerWarp = (attributes.numRegs * 32 + 255) / 256 * 256;
  const std::size_t shared = attributes.sharedSizeBytes + launch.sharedBytes;
  const std::pair<const char*, int> bounds[] = {
      {"threads", device.maxThreadsPerSm / (warps * 32)},
      {"blocks", attribute(cudaDevAttrMaxBlocksPerMultiprocessor)},
      {"registers",
       regsPerWarp > 0 ? attribute(cudaDevAttrMaxRegistersPerMultiprocessor) / (regsPerWarp * warps)
                       : INT_MAX},
      {"shared memory",
       shared > 0 ? static_cast<int>(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor) /
                                     (shared + attribute(cudaDevAttrReservedSharedMemoryPerBlock)))
                  : INT_MAX},
  };
  // Every resource that allows no more than the API's answer limits it; the tightest where the
  // estimates all allow more (allocation rules this arithmetic does not model).
  for (const auto& [name, bound] : bounds)
    if (bound <= out.residentPerSm)
      out.limiter += (out.limiter.empty() ? "" : " and ") + std::string(name);
  if (out.limiter.empty())
    out.limiter = std::min_element(std::begin(bounds), std::end(bounds), [](auto& a, auto& b) {
                    return a.second < b.second;
                  })->first;
  return out;
}

std::vector<WaveLaunch> waveLaunches(const std::vector<KernelLaunch>& launches,
                                     const DeviceInfo& device, std::size_t most) {
  std::vector<const KernelLaunch*> distinct;
  for (const KernelLaunch& l : launches) {
    if (!l.function) continue;
    const bool seen = std::any_of(distinct.begin(), distinct.end(), [&](const KernelLaunch* d) {
      return d->function == l.function && d->grid.x == l.grid.x && d->grid.y == l.grid.y &&
             d->grid.z == l.grid.z && d->block.x == l.block.x && d->block.y == l.block.y &&
             d->block.z == l.block.z && d->sharedBytes == l.sharedBytes;
    });
    if (!seen) distinct.push_back(&l);
  }
  std::vector<WaveLaunch> out;
  if (distinct.size() > most) return out;
  for (const KernelLaunch* l : distinct) out.push_back(waveLaunch(*l, device));
  return out;
}

}  // namespace kwb
