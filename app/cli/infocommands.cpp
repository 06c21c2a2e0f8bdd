// `kwb devices` and `kwb list`.
#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/table.h"
#include "app/cli/workercommand.h"
#include "core/format.h"
#include "core/jsoncodec.h"
#include "core/metriccatalog.h"
#include "db/runstore.h"
#include "kernels/registry.h"
#include "measure/devicequery.h"

namespace kwb {

int devicesCommand(CliContext& context) {
  std::vector<DeviceInfo> devices;
  if (const std::string& host = context.global.host; !host.empty()) {
    try {
      devices = workerDevices(workerCommand(host, 0));
    } catch (const Error& error) {
      throw Error(error.kind(), host + ": " + error.what());
    }
  } else {
    devices = queryDevices();
  }
  if (devices.empty()) throw Error(ErrorKind::NoDevice, noDeviceReason());

  // The cached copy ceiling, where this device has been measured before.
  std::unique_ptr<RunStore> store;
  if (!context.global.noStore) store = context.openStore();
  auto ceilingOf = [&](const DeviceInfo& d) {
    return store ? store->latestCeiling(d.uuid) : std::nullopt;
  };

  if (context.global.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : devices) {
      auto item = toJson(d);
      auto ceiling = ceilingOf(d);
      item["copy_ceiling"] = ceiling ? toJson(*ceiling) : nlohmann::json(nullptr);
      out.push_back(item);
    }
    context.out << out.dump(2) << '\n';
    return kExitOk;
  }
  Table table({"#", "name", "cc", "SMs", "threads/SM", "L2", "memory", "peak", "copy ceiling",
               "driver", "uuid"});
  for (const auto& d : devices) {
    auto ceiling = ceilingOf(d);
    table.addRow(
        {std::to_string(d.ordinal), d.name, d.computeCapability(), std::to_string(d.smCount),
         std::to_string(d.maxThreadsPerSm), formatBytes(static_cast<double>(d.l2Bytes)),
         formatBytes(static_cast<double>(d.totalMemBytes)), formatBandwidth(d.peakBandwidth),
         ceiling ? formatBandwidth(ceiling->bandwidth) : "not measured",
         std::to_string(d.driverVersion / 1000) + "." + std::to_string(d.driverVersion % 1000 / 10),
         d.uuid});
  }
  table.print(context.out);
  return kExitOk;
}

namespace {

void printVariant(std::ostream& out, const VariantInfo& variant) {
  out << variant.family << "/" << variant.name << ": " << variant.summary << "\n";
  out << "  " << variant.teaches << "\n\n";
  Table table({"parameter", "role", "default", "allowed", "unit", "meaning"});
  for (const auto& p : variant.params)
    table.addRow({p.name, std::string(toString(p.role)), p.defaultValue, p.allowedText(), p.unit,
                  p.meaning});
  table.print(out);
  out << "\n";
}

}  // namespace

int listCommand(CliContext& context, const std::string& family) {
  const std::vector<FamilyInfo> families =
      family.empty() ? Registry::instance().families()
                     : std::vector<FamilyInfo>{Registry::instance().family(family)};
  if (context.global.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : families) out.push_back(toJson(f));
    context.out << out.dump(2) << '\n';
    return kExitOk;
  }
  if (!family.empty()) {
    for (const auto& variant : families.front().variants) printVariant(context.out, variant);
    return kExitOk;
  }
  Table table({"family", "variant", "what it is"});
  for (const auto& f : families)
    for (const auto& v : f.variants) table.addRow({f.name, v.name, v.summary});
  table.print(context.out);
  context.out << "\n`kwb list FAMILY` shows each variant's parameters and what it teaches; "
                 "`kwb list --metrics` the hardware metric sets.\n";
  return kExitOk;
}

int listMetricsCommand(CliContext& context) {
  if (context.global.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& set : metricSets()) {
      nlohmann::json derived = nlohmann::json::array();
      for (const auto& d : set.derived) derived.push_back(d.name);
      out.push_back({{"name", set.name},
                     {"meaning", set.meaning},
                     {"counters", set.counters},
                     {"derived", derived},
                     {"theoretical_occupancy", set.theoreticalOccupancy}});
    }
    context.out << out.dump(2) << '\n';
    return kExitOk;
  }
  for (const auto& set : metricSets()) {
    context.out << set.name << ": " << set.meaning << "\n";
    for (const auto& counter : set.counters) context.out << "  " << counter << "\n";
    for (const auto& d : set.derived)
      context.out << "  " << d.name << " (" << d.numerator << " / " << d.denominator << ")\n";
    if (set.theoreticalOccupancy)
      context.out << "  " << kTheoreticalOccupancy << " (from the occupancy API)\n";
  }
  context.out << "\nEvery set also reads " << kDurationMetric
              << "; `all` is every set. Other Nsight Compute names may be listed too, such as "
                 "--metrics memory,smsp__sass_inst_executed_op_global_ld.sum.\n";
  return kExitOk;
}

}  // namespace kwb
