#include "measure/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "core/error.h"
#include "core/gpustate.h"
#include "core/metricrollup.h"
#include "core/timeformat.h"
#include "core/version.h"
#include "kernels/cudacheck.h"
#include "kernels/registry.h"
#include "measure/activitytracer.h"
#include "measure/cupticheck.h"
#include "measure/devicebuffer.h"
#include "measure/devicequery.h"
#include "measure/gpustatesampler.h"
#include "measure/kernelprofiler.h"
#include "measure/launchrecorder.h"
#include "measure/verifier.h"
#include "measure/workloadbuffers.h"

namespace kwb {
namespace {

// Calls traced for exact kernel durations: enough for a steady median, few enough to be cheap.
constexpr std::size_t kTracedCalls = 10;
// Host wall time: calls until this many or this long, and at least kMinWallCalls.
constexpr std::size_t kWallCalls = 20;
constexpr std::size_t kMinWallCalls = 3;
constexpr double kWallSeconds = 0.25;
// Distinct launches of a call whose waves a run records; a call of more is not about its waves.
constexpr std::size_t kMostWaveLaunches = 8;

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

void splitByRole(const VariantInfo& info, const ParamSet& params, RunResult& result) {
  for (const auto& spec : info.params) {
    if (!params.has(spec.name)) continue;
    (spec.role == ParamRole::Problem ? result.problem : result.launch)
        .set(spec.name, params.get(spec.name));
  }
}

}  // namespace

Runner::Runner(int ordinal) : device_(queryDevice(ordinal)) {
  KWB_CUDA_CHECK(cudaSetDevice(ordinal));
  KWB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  timer_ = std::make_unique<Timer>(stream_, device_.l2Bytes);
  profiler_ = makeKernelProfiler(device_);
  stateSampler_ = makeGpuStateSampler(device_, stream_);
  int peakKhz = 0;
  if (cudaDeviceGetAttribute(&peakKhz, cudaDevAttrClockRate, ordinal) == cudaSuccess)
    smClockMaxMhz_ = peakKhz / 1000.0;
}

Runner::~Runner() {
  stateSampler_.reset();
  profiler_.reset();
  timer_.reset();
  if (stream_) cudaStreamDestroy(stream_);
}

bool Runner::healthy() const {
  // Sticky errors come back from every call once the context is broken.
  return !hung_ && cudaDeviceSynchronize() == cudaSuccess;
}

void Runner::waitForCheckedCall(double seconds, Prepared& prepared) {
  const auto start = Clock::now();
  cudaError_t status;
  while ((status = cudaStreamQuery(stream_)) == cudaErrorNotReady) {
    if (secondsSince(start) > seconds) {
      // The kernel still runs: freeing its buffers would wait for it forever. They go with the
      // process, which must end now.
      hung_ = true;
      for (auto& buffer : prepared.buffers) buffer.abandon();
      char text[200];
      std::snprintf(text, sizeof text,
                    "the kernel did not finish within %.0f s: a hang (or a call that needs more "
                    "time: --hang-after); it ends with its process",
                    seconds);
      throw Error(ErrorKind::Cuda, text);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  checkCuda(status, "the checked call's kernels", __FILE__, __LINE__);
}

const Variant& Runner::variantOf(const RunRequest& request) {
  return request.kernel ? *request.kernel
                        : Registry::instance().find(request.family, request.variant);
}

RunResult Runner::run(const RunRequest& request, const std::atomic<bool>* cancel) {
  const Variant& variant = variantOf(request);
  RunResult result;
  result.family = variant.info().family;
  result.variant = variant.info().name;
  result.code = variant.code();
  splitByRole(variant.info(), request.params, result);
  result.mode = request.timing.mode;
  result.deviceUuid = device_.uuid;
  result.appVersion = kAppVersion;
  result.peakBandwidth = device_.peakBandwidth;
  result.startedAt = nowUnixMs();

  checkLimits(request);
  if (!request.metrics.empty()) profiler_->check(request.metrics);
  try {
    execute(variant, request, result, cancel);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::Cuda) throw;
    result.status = RunStatus::Failed;
    result.error = error.what();
  }
  return result;
}

void Runner::checkLimits(const RunRequest& request) const {
  if (request.params.has("block_size") && !request.params.isAuto("block_size") &&
      request.params.getInt("block_size") > device_.maxThreadsPerBlock)
    throw paramError("block_size", request.params.get("block_size") + " exceeds this device's " +
                                       std::to_string(device_.maxThreadsPerBlock) +
                                       " threads per block; allowed: 32.." +
                                       std::to_string(device_.maxThreadsPerBlock));
}

Runner::Prepared Runner::prepare(const Variant& variant, const RunRequest& request) {
  Prepared prepared;
  prepared.workload = variant.create(request.params, device_);
  const Workload& workload = *prepared.workload;
  const auto specs = workload.buffers();
  std::size_t needed = 0;
  for (const auto& spec : specs) needed += spec.count * sizeOf(spec.dtype);
  const std::size_t available = freeDeviceMemory();
  if (needed > available) {
    const std::string& sizeParam = variant.info().sizeParam;
    const std::string what = "needs " + gib(static_cast<double>(needed)) +
                             " of device memory; the device has " +
                             gib(static_cast<double>(available)) + " free";
    if (sizeParam.empty()) throw paramError("buffers", "this configuration " + what);
    throw paramError(sizeParam, request.params.get(sizeParam) + " " + what);
  }

  // The fills end before anything is traced.
  prepared.buffers = workloadBuffers(workload, request.seed, stream_);
  for (const auto& buffer : prepared.buffers) prepared.pointers.push_back(buffer.data());
  return prepared;
}

std::vector<std::string> Runner::launchedKernels(const RunRequest& request) {
  const Variant& variant = variantOf(request);
  checkLimits(request);
  Prepared prepared = prepare(variant, request);
  std::vector<KernelRecord> records;
  try {
    records =
        ActivityTracer().trace([&] { prepared.workload->enqueue(prepared.pointers, stream_); });
  } catch (const CuptiError& error) {
    throw Error(ErrorKind::Tool,
                "cannot learn which kernels the variant launches: " + cuptiBlockedReason(error));
  }
  std::vector<std::string> symbols;
  for (const auto& record : records)
    if (std::find(symbols.begin(), symbols.end(), record.symbol) == symbols.end())
      symbols.push_back(record.symbol);
  return symbols;
}

void Runner::execute(const Variant& variant, const RunRequest& request, RunResult& result,
                     const std::atomic<bool>* cancel) {
  Prepared prepared = prepare(variant, request);
  Workload* workload = prepared.workload.get();
  const std::vector<void*>& pointers = prepared.pointers;
  result.derived = workload->derived();
  result.bytes = workload->bytesMoved();
  result.flops = workload->flops();

  // The checked run; its launches give the waves of the grid. Where CUPTI is held by another tool
  // the run goes on without them.
  workload->beforeCheckedRun(pointers, stream_);
  std::vector<KernelLaunch> launches;
  try {
    LaunchRecorder recorder;
    workload->enqueue(pointers, stream_);
    launches = recorder.launches();
  } catch (const CuptiError&) {
    workload->enqueue(pointers, stream_);
  }
  waitForCheckedCall(request.hangSeconds, prepared);
  recordWaves(result.derived, waveLaunches(launches, device_, kMostWaveLaunches));
  if (workload->checked() && !verify(*workload, pointers, result)) return;
  result.status = RunStatus::Ok;
  if (!request.verifyOnly) {
    time(*workload, pointers, request, result, cancel);
    profile(*workload, pointers, request, result);
  }
  if (!workload->checked())
    result.notice = "not checked: the kernel file says verification = \"none\"" +
                    (result.notice.empty() ? "" : "; " + result.notice);
}

bool Runner::verify(Workload& workload, const std::vector<void*>& pointers, RunResult& result) {
  const auto specs = workload.buffers();
  std::vector<HostArray> inputs;
  std::vector<HostArray> outputs;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].scratch) continue;
    auto& host = (specs[i].output ? outputs : inputs).emplace_back(specs[i].dtype, specs[i].count);
    KWB_CUDA_CHECK(cudaMemcpy(host.data(), pointers[i], host.byteSize(), cudaMemcpyDeviceToHost));
  }
  result.verification.checked = true;
  result.verification.passed = true;
  result.verification.tolerance = workload.tolerance();
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    // The worst output decides.
    const Verification v = verifyOutput(workload, inputs, o, outputs[o], workload.tolerance());
    if (o == 0 || !(v.relError <= result.verification.relError))
      result.verification.relError = v.relError;
    result.verification.passed = result.verification.passed && v.passed;
  }
  if (!result.verification.passed) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "output differs from the CPU reference: relative L2 error %.3g > tolerance %.3g",
                  result.verification.relError, result.verification.tolerance);
    result.status = RunStatus::VerificationFailed;
    result.error = text;
    return false;
  }
  return true;
}

void Runner::time(Workload& workload, const std::vector<void*>& pointers, const RunRequest& request,
                  RunResult& result, const std::atomic<bool>* cancel) {
  std::vector<GpuStateSample> states{stateSampler_->sample()};
  const auto probe = [&] {
    states.push_back(stateSampler_->sample());
    return states.back().throttled;
  };
  TimingOutcome timing =
      timer_->measure([&](cudaStream_t stream) { workload.enqueue(pointers, stream); },
                      request.timing, cancel, probe, workload.launchesPerCall());
  if (!timing.backToBack) result.derived.set("timed_back_to_back", "no");
  result.flush = request.timing.mode == TimingMode::Cold ? L2Flush::WriteRead : L2Flush::None;
  result.eventOverhead = timing.eventOverhead;
  result.samples = std::move(timing.samples);
  result.throttledSamples = std::move(timing.throttledSamples);
  result.converged = timing.converged;
  result.stats = summarize(result.samples);
  result.bandwidth =
      result.stats.median > 0 ? static_cast<double>(result.bytes) / result.stats.median : 0;
  const auto state =
      gpuStateMetrics(states, stateSampler_->source(), result.throttledSamples.size());
  result.metrics.insert(result.metrics.end(), state.begin(), state.end());
  // The clock the readings are held against in the quality panel.
  if (smClockMaxMhz_ > 0) result.metrics.push_back({"gpu.sm_clock_max", smClockMaxMhz_, "MHz", ""});
  hostTimes(workload, pointers, result);
}

// What the application waits for per call, launch overhead included: the events above time the
// GPU; this times the host issuing the call and waiting for it.
void Runner::hostTimes(Workload& workload, const std::vector<void*>& pointers, RunResult& result) {
  std::vector<double> walls;
  std::vector<double> enqueues;
  const auto start = Clock::now();
  while (walls.size() < kWallCalls &&
         (walls.size() < kMinWallCalls || secondsSince(start) < kWallSeconds)) {
    timer_->flushL2();
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const auto callStart = Clock::now();
    workload.enqueue(pointers, stream_);
    enqueues.push_back(secondsSince(callStart));
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    walls.push_back(secondsSince(callStart));
  }
  result.metrics.push_back({std::string(kHostWall), summarize(walls).median, "s", ""});
  result.metrics.push_back({std::string(kHostEnqueue), summarize(enqueues).median, "s", ""});
  result.metrics.push_back(
      {std::string(kHostLaunches), static_cast<double>(workload.launchesPerCall()), "", ""});
}

// Passes of their own after timing, so that tracing and counter replay never touch the samples.
void Runner::profile(Workload& workload, const std::vector<void*>& pointers,
                     const RunRequest& request, RunResult& result) {
  ProfileOutcome durations = profiler_->durations(
      [&] {
        timer_->flushL2();
        workload.enqueue(pointers, stream_);
      },
      kTracedCalls, L2Flusher::kernelSymbol());
  result.metrics.insert(result.metrics.end(), durations.metrics.begin(), durations.metrics.end());
  ProfileOutcome counters;
  if (!request.metrics.empty() && workload.kernelsPerCall() > kMaxProfiledLaunches) {
    counters.unavailable = "one call runs " + std::to_string(workload.kernelsPerCall()) +
                           " kernels, more than the " + std::to_string(kMaxProfiledLaunches) +
                           " a counter pass keeps";
  } else if (!request.metrics.empty()) {
    timer_->flushL2();
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    counters = profiler_->counters(request.metrics, [&] { workload.enqueue(pointers, stream_); });
    result.metrics.insert(result.metrics.end(), counters.metrics.begin(), counters.metrics.end());
  }
  result.notice = profileNotice(durations.unavailable, counters.unavailable);
}

CopyCeiling Runner::measureCopyCeiling(const std::atomic<bool>* cancel) {
  // 2^28 floats (1 GiB each way) where memory allows: far past L2, long enough to time well.
  std::int64_t n = std::int64_t{1} << 28;
  const auto fits = static_cast<std::int64_t>(freeDeviceMemory() / 4 / sizeof(float));
  while (n > fits && n > (1 << 20)) n /= 2;

  CopyCeiling best;
  for (const char* variant : {"memcpy", "vectorized"}) {
    RunRequest request;
    request.family = "copy";
    request.variant = variant;
    request.params = Registry::instance().resolve("copy", variant, {{"n", std::to_string(n)}});
    request.timing.budgetSeconds = 0.5;
    RunResult result = run(request, cancel);
    if (result.status != RunStatus::Ok)
      throw Error(ErrorKind::Cuda, "measuring the copy ceiling failed: " + result.error);
    if (result.bandwidth > best.bandwidth)
      best = {result.bandwidth, result.bytes, variant, nowUnixMs()};
  }
  return best;
}

}  // namespace kwb
