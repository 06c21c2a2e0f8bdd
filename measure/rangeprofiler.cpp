#include "measure/rangeprofiler.h"

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdint>

#include "core/metriccatalog.h"
#include "kernels/cudacheck.h"
#include "measure/cupticheck.h"

namespace kwb {
namespace {

// CUPTI's parameter structs: zeroed, with their size set, as every call expects.
template <typename P>
P params(std::size_t structSize) {
  P p{};
  p.structSize = structSize;
  return p;
}

// The host object compiles metric names into a configuration for one chip; it needs neither a
// GPU nor counter permission, so names are checked even where counters cannot be read.
class HostObject {
 public:
  // CUPTI keeps pointers to the chip name and the availability image: the object owns both.
  HostObject(std::string chip, std::vector<std::uint8_t> availability)
      : chip_(std::move(chip)), availability_(std::move(availability)) {
    auto p = params<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip_.c_str();
    p.pCounterAvailabilityImage = availability_.empty() ? nullptr : availability_.data();
    KWB_CUPTI_CHECK(cuptiProfilerHostInitialize(&p));
    object_ = p.pHostObject;
  }
  ~HostObject() {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = object_;
    cuptiProfilerHostDeinitialize(&p);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
  CUpti_Profiler_Host_Object* get() const { return object_; }

  std::vector<std::string> baseMetrics() const {
    std::vector<std::string> names;
    for (auto type :
         {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
      auto p = params<CUpti_Profiler_Host_GetBaseMetrics_Params>(
          CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
      p.pHostObject = object_;
      p.metricType = type;
      KWB_CUPTI_CHECK(cuptiProfilerHostGetBaseMetrics(&p));
      for (std::size_t i = 0; i < p.numMetrics; ++i) names.emplace_back(p.ppMetricNames[i]);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  std::vector<std::uint8_t> configImage(const std::vector<const char*>& names) const {
    auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = object_;
    add.ppMetricNames = const_cast<const char**>(names.data());
    add.numMetrics = names.size();
    KWB_CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics(&add));
    auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = object_;
    KWB_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
    std::vector<std::uint8_t> image(size.configImageSize);
    auto get = params<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    get.pHostObject = object_;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    KWB_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&get));
    return image;
  }

  std::vector<double> evaluate(const std::vector<std::uint8_t>& counterData, std::size_t range,
                               const std::vector<const char*>& names) const {
    std::vector<double> values(names.size());
    auto p = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    p.pHostObject = object_;
    p.pCounterDataImage = counterData.data();
    p.counterDataImageSize = counterData.size();
    p.rangeIndex = range;
    p.ppMetricNames = const_cast<const char**>(names.data());
    p.numMetrics = names.size();
    p.pMetricValues = values.data();
    KWB_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&p));
    return values;
  }

 private:
  std::string chip_;
  std::vector<std::uint8_t> availability_;
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

CUcontext currentContext() {
  KWB_CUDA_CHECK(cudaFree(nullptr));  // makes the device's primary context current
  // Through the runtime, so that kwb links no libcuda and starts on machines without a driver.
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  KWB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000,
                                                  cudaEnableDefault, &found));
  CUcontext context = nullptr;
  if (found != cudaDriverEntryPointSuccess || !entry ||
      reinterpret_cast<decltype(&cuCtxGetCurrent)>(entry)(&context) != CUDA_SUCCESS || !context)
    throw Error(ErrorKind::Cuda, "the range profiler found no current CUDA context");
  return context;
}

std::vector<std::uint8_t> counterAvailability(CUcontext context) {
  auto p = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  p.ctx = context;
  KWB_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  KWB_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  return image;
}

// Enables the range profiler on a context for one profile() call; disables it on every path out.
class Session {
 public:
  explicit Session(CUcontext context) {
    auto p =
        params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    p.ctx = context;
    KWB_CUPTI_CHECK(cuptiRangeProfilerEnable(&p));
    object_ = p.pRangeProfilerObject;
  }
  ~Session() {
    auto p =
        params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = object_;
    cuptiRangeProfilerDisable(&p);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  CUpti_RangeProfiler_Object* get() const { return object_; }

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

}  // namespace

RangeProfiler::RangeProfiler(int ordinal) : ordinal_(ordinal) {
  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  KWB_CUPTI_CHECK(cuptiProfilerInitialize(&init));
  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(ordinal);
  KWB_CUPTI_CHECK(cuptiDeviceGetChipName(&chip));
  chip_ = chip.pChipName;
  baseMetrics_ = HostObject(chip_, {}).baseMetrics();
}

RangeProfiler::~RangeProfiler() {
  auto p =
      params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
  cuptiProfilerDeInitialize(&p);
}

std::vector<std::string> RangeProfiler::resolve(const std::vector<std::string>& wanted) const {
  const auto known = [&](const std::string& name) {
    return std::binary_search(baseMetrics_.begin(), baseMetrics_.end(),
                              name.substr(0, name.find('.')));
  };
  std::vector<std::string> names;
  for (const auto& name : wanted) {
    std::vector<std::string> candidates{name};
    for (auto& alias : metricAliases(name)) candidates.push_back(std::move(alias));
    const auto found = std::find_if(candidates.begin(), candidates.end(), known);
    if (found == candidates.end())
      throw paramError("metrics", "metric '" + name + "' is not known on " + chip_ +
                                      " (names as Nsight Compute gives them, such as "
                                      "dram__bytes_read.sum; `ncu --query-metrics` lists them)");
    names.push_back(*found);
  }
  // A known base with an unknown rollup (".summ") fails here, before anything runs.
  std::vector<const char*> pointers;
  for (const auto& n : names) pointers.push_back(n.c_str());
  try {
    HostObject(chip_, {}).configImage(pointers);
  } catch (const CuptiError& error) {
    throw paramError("metrics", std::string("these metrics do not form a configuration on ") +
                                    chip_ + ": " + error.what());
  }
  return names;
}

std::vector<std::vector<double>> RangeProfiler::profile(const std::vector<std::string>& names,
                                                        const std::function<void()>& launch,
                                                        std::size_t maxRanges) {
  const CUcontext context = currentContext();
  const HostObject host(chip_, counterAvailability(context));
  std::vector<const char*> pointers;
  for (const auto& n : names) pointers.push_back(n.c_str());
  const std::vector<std::uint8_t> config = host.configImage(pointers);

  Session session(context);
  auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = session.get();
  size.pMetricNames = pointers.data();
  size.numMetrics = pointers.size();
  size.maxNumOfRanges = maxRanges;
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(maxRanges);
  KWB_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
  std::vector<std::uint8_t> counterData(size.counterDataSize);
  auto initData = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  initData.pRangeProfilerObject = session.get();
  initData.counterDataSize = counterData.size();
  initData.pCounterData = counterData.data();
  KWB_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&initData));

  auto set = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = session.get();
  set.configSize = config.size();
  set.pConfig = config.data();
  set.counterDataImageSize = counterData.size();
  set.pCounterDataImage = counterData.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_KernelReplay;
  set.maxRangesPerPass = maxRanges;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  KWB_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&set));

  auto start =
      params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = session.get();
  KWB_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
  launch();
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = session.get();
  KWB_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = session.get();
  KWB_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));

  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counterData.data();
  info.counterDataImageSize = counterData.size();
  KWB_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
  std::vector<std::vector<double>> ranges;
  for (std::size_t r = 0; r < info.numTotalRanges; ++r)
    ranges.push_back(host.evaluate(counterData, r, pointers));
  return ranges;
}

}  // namespace kwb
