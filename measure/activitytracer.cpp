#include "measure/activitytracer.h"

#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "core/kernelname.h"
#include "kernels/cudacheck.h"
#include "measure/cupticheck.h"

namespace kwb {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;
constexpr std::size_t kAlignment = 8;  // CUPTI's requirement for activity buffers
// Serialized kernel records: on an H100 their start and end agree with Nsight Compute's
// gpu__time_duration within 1 % on kernels of 40 us and more, where concurrent-kernel records
// fell 1.3 us short of it and ran 11 % long on a 131072-block grid (docs/PERFORMANCE.md).
constexpr CUpti_ActivityKind kKind = CUPTI_ACTIVITY_KIND_KERNEL;

// CUPTI hands buffers back through plain function pointers, so the records gather here.
std::mutex gMutex;
std::vector<KernelRecord> gRecords;

void CUPTIAPI requestBuffer(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxRecords = 0;  // as many as fit
}

void CUPTIAPI completeBuffer(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
  CUpti_Activity* record = nullptr;
  std::lock_guard lock(gMutex);
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    if (record->kind != kKind) continue;
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    const std::string symbol = kernel->name ? kernel->name : "kernel";
    gRecords.push_back({shortKernelName(symbol), symbol, kernel->start, kernel->end});
  }
  std::free(buffer);
}

}  // namespace

ActivityTracer::ActivityTracer() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    KWB_CUPTI_CHECK(cuptiActivityRegisterCallbacks(&requestBuffer, &completeBuffer));
  });
}

std::vector<KernelRecord> ActivityTracer::trace(const std::function<void()>& run) {
  KWB_CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  {
    std::lock_guard lock(gMutex);
    gRecords.clear();
  }
  KWB_CUPTI_CHECK(cuptiActivityEnable(kKind));
  try {
    run();
    KWB_CUDA_CHECK(cudaDeviceSynchronize());
  } catch (...) {
    cuptiActivityDisable(kKind);
    throw;
  }
  KWB_CUPTI_CHECK(cuptiActivityDisable(kKind));
  KWB_CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::lock_guard lock(gMutex);
  std::vector<KernelRecord> records = std::move(gRecords);
  gRecords.clear();
  std::sort(records.begin(), records.end(),
            [](const KernelRecord& a, const KernelRecord& b) { return a.startNs < b.startNs; });
  return records;
}

}  // namespace kwb
