#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/deviceinfo.h"
#include "core/runresult.h"

namespace kwb::testing {

// A database path in a fresh temporary folder, removed with the fixture.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("kwb-test-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline DeviceInfo fakeDevice(const std::string& uuid = "GPU-aaaa",
                             const std::string& name = "Test GPU") {
  DeviceInfo d;
  d.name = name;
  d.uuid = uuid;
  d.ccMajor = 9;
  d.smCount = 132;
  d.maxThreadsPerSm = 2048;
  d.maxThreadsPerBlock = 1024;
  d.l2Bytes = 50 << 20;
  d.memBusBits = 5120;
  d.memClockKhz = 2619000;
  d.totalMemBytes = 80ull << 30;
  d.peakBandwidth = 3.35e12;
  d.driverVersion = 13000;
  d.runtimeVersion = 13000;
  return d;
}

inline RunResult fakeRun(const std::string& variant, const std::string& dtype,
                         std::int64_t startedAt, const std::string& uuid = "GPU-aaaa") {
  RunResult r;
  r.family = "copy";
  r.variant = variant;
  r.problem.set("n", "1048576");
  r.problem.set("dtype", dtype);
  r.launch.set("block_size", "256");
  r.samples = {2e-5, 2.1e-5, 1.9e-5};
  r.stats = summarize(r.samples);
  r.bytes = 8 << 20;
  r.bandwidth = static_cast<double>(r.bytes) / r.stats.median;
  r.ceilingBandwidth = 3e12;
  r.peakBandwidth = 3.35e12;
  r.verification = {true, true, 0, 0};
  r.deviceUuid = uuid;
  r.appVersion = "test";
  r.startedAt = startedAt;
  return r;
}

}  // namespace kwb::testing
