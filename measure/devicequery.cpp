#include "measure/devicequery.h"

#include <cstdio>

#include <cuda_runtime.h>

#include "core/error.h"
#include "kernels/cudacheck.h"

namespace kwb {
namespace {

std::string formatUuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text, sizeof text,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return text;
}

int attribute(cudaDeviceAttr attr, int ordinal) {
  int value = 0;
  KWB_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, ordinal));
  return value;
}

}  // namespace

int deviceCount() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    (void)cudaGetLastError();  // not sticky: clear it
    return 0;
  }
  KWB_CUDA_CHECK(status);
  return count;
}

std::string noDeviceReason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  if (status == cudaErrorInsufficientDriver)
    return "no CUDA device: the NVIDIA driver is missing or older than this build's CUDA runtime";
  if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0))
    return "no CUDA device: the driver reports no GPU on this machine";
  return std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorString(status);
}

DeviceInfo queryDevice(int ordinal) {
  const int count = deviceCount();
  if (count == 0) throw Error(ErrorKind::NoDevice, noDeviceReason());
  if (ordinal < 0 || ordinal >= count)
    throw paramError("device", std::to_string(ordinal) + " is not a device; allowed: 0.." +
                                   std::to_string(count - 1));

  cudaDeviceProp prop{};
  KWB_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = prop.name;
  d.uuid = formatUuid(prop.uuid);
  d.ccMajor = prop.major;
  d.ccMinor = prop.minor;
  d.smCount = prop.multiProcessorCount;
  d.maxThreadsPerSm = prop.maxThreadsPerMultiProcessor;
  d.maxThreadsPerBlock = prop.maxThreadsPerBlock;
  d.l2Bytes = prop.l2CacheSize;
  d.memBusBits = prop.memoryBusWidth;
  d.totalMemBytes = prop.totalGlobalMem;
  // The memory clock left cudaDeviceProp in CUDA 13; the attribute still reports it (kHz).
  d.memClockKhz = attribute(cudaDevAttrMemoryClockRate, ordinal);
  d.peakBandwidth = 2.0 * static_cast<double>(d.memClockKhz) * 1e3 * d.memBusBits / 8.0;
  KWB_CUDA_CHECK(cudaDriverGetVersion(&d.driverVersion));
  KWB_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtimeVersion));
  return d;
}

std::vector<DeviceInfo> queryDevices() {
  std::vector<DeviceInfo> devices;
  const int count = deviceCount();
  for (int i = 0; i < count; ++i) devices.push_back(queryDevice(i));
  return devices;
}

std::size_t freeDeviceMemory() {
  std::size_t freeBytes = 0;
  std::size_t totalBytes = 0;
  KWB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  return freeBytes;
}

}  // namespace kwb
