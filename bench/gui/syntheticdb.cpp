#include "syntheticdb.h"

#include <array>
#include <cmath>
#include <random>

#include "core/stats.h"
#include "db/database.h"
#include "db/runstore.h"

namespace kwb {

void writeSyntheticHistory(const std::string& path, std::size_t runs) {
  RunStore store(path);
  // Generation speed only: a crash here loses nothing anyone needs.
  store.database().exec("PRAGMA synchronous = OFF");
  DeviceInfo device;
  device.name = "Synthetic H100";
  device.uuid = "GPU-synthetic-0000";
  device.ccMajor = 9;
  device.smCount = 132;
  device.maxThreadsPerSm = 2048;
  device.maxThreadsPerBlock = 1024;
  device.l2Bytes = 50 << 20;
  device.peakBandwidth = 3.35e12;
  store.upsertDevice(device);

  constexpr std::array<const char*, 6> kVariants = {
      "copy/memcpy",        "copy/vectorized",         "elementwise/naive",
      "elementwise/packed", "elementwise/grid_stride", "elementwise/packed_half2"};
  constexpr std::array<const char*, 3> kDtypes = {"f32", "f16", "bf16"};
  constexpr std::array<const char*, 4> kOps = {"relu", "gelu", "gelu_tanh", "mul"};
  std::mt19937_64 random(7);
  const std::int64_t start = 1'760'000'000'000;  // unix ms
  const std::int64_t span = 60LL * 86'400'000;
  Transaction batch(store.database());
  for (std::size_t i = 0; i < runs; ++i) {
    RunResult r;
    const std::string kernel = kVariants[random() % kVariants.size()];
    r.family = kernel.substr(0, kernel.find('/'));
    r.variant = kernel.substr(kernel.find('/') + 1);
    const int exponent = 20 + static_cast<int>(random() % 9);
    const auto n = std::int64_t{1} << exponent;
    r.problem.set("n", std::to_string(n));
    r.problem.set("dtype", kDtypes[random() % kDtypes.size()]);
    if (r.family == "elementwise") r.problem.set("op", kOps[random() % kOps.size()]);
    r.launch.set("block_size", std::to_string(64 << (random() % 5)));
    r.launch.set("waves", std::to_string(1 << (random() % 7)));
    r.bytes = static_cast<std::uint64_t>(2 * 4 * n);
    const double ideal = static_cast<double>(r.bytes) / 3.0e12;
    const double seconds = ideal * (1.0 + 0.6 * std::exp(-(exponent - 20) / 2.0)) *
                           (1.0 + 0.2 * static_cast<double>(random() % 100) / 100.0);
    std::normal_distribution<double> noise(seconds, seconds * 0.01);
    for (int s = 0; s < 10; ++s) r.samples.push_back(noise(random));
    r.stats = summarize(r.samples);
    r.bandwidth = static_cast<double>(r.bytes) / r.stats.median;
    r.ceilingBandwidth = 3.0e12;
    r.peakBandwidth = device.peakBandwidth;
    r.verification = {true, true, 1e-7, 1e-5};
    r.converged = true;
    r.deviceUuid = device.uuid;
    r.appVersion = "synthetic";
    r.startedAt = start + static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(span));
    const std::int64_t id = store.insertRun(r);
    if (i % 50 == 0) store.addTag(id, "synthetic");
  }
  batch.commit();
}

}  // namespace kwb
