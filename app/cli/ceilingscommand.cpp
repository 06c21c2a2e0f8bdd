// `kwb devices --ceilings`: the device's measured ceilings beside its datasheet's.
#include <cmath>

#include "app/cli/clicontext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/interruptscope.h"
#include "app/cli/table.h"
#include "core/ceilings.h"
#include "core/format.h"
#include "core/timeformat.h"
#include "db/runstore.h"
#include "measure/runner.h"

namespace kwb {
namespace {

std::string fraction(double value, std::optional<double> of) {
  if (!of || *of <= 0 || value <= 0) return "-";
  return formatted("%.3f", value / *of);
}

std::string clockText(double mhz) {
  return mhz > 0 ? std::to_string(static_cast<int>(std::lround(mhz))) + " MHz" : "-";
}

}  // namespace

int ceilingsCommand(CliContext& context, bool remeasure) {
  Runner runner(context.global.device);
  const DeviceInfo& device = runner.device();
  std::unique_ptr<RunStore> store;
  if (!context.global.noStore) {
    store = context.openStore();
    store->upsertDevice(device);
  }
  std::vector<DeviceCeiling> ceilings;
  if (store && !remeasure) ceilings = store->deviceCeilings(device.uuid);
  if (ceilings.empty()) {
    context.err << "measuring the ceilings of " << device.name << " (about 10 s)...\n";
    const InterruptScope interrupt;
    ceilings = runner.measureCeilings(&InterruptScope::interrupted());
    if (store) store->saveDeviceCeilings(device.uuid, ceilings);
  }
  const double maxClock = runner.smClockMaxMhz();

  if (context.global.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const DeviceCeiling& c : ceilings) {
      const CeilingSpec& spec = *ceilingSpec(c.name);
      const auto peak = datasheetPeak(device, c.name, maxClock);
      const auto atClock = datasheetPeak(device, c.name, c.smClockMhz);
      out.push_back({{"name", c.name},
                     {"value", c.value},
                     {"unit", spec.bandwidth ? "B/s" : "FLOP/s"},
                     {"sm_clock_mhz", c.smClockMhz > 0 ? nlohmann::json(c.smClockMhz) : nullptr},
                     {"datasheet", peak ? nlohmann::json(*peak) : nullptr},
                     {"datasheet_at_clock", atClock ? nlohmann::json(*atClock) : nullptr},
                     {"measured_at", formatTimestamp(c.measuredAt)}});
    }
    context.out << nlohmann::json{{"device", device.name},
                                  {"uuid", device.uuid},
                                  {"sm_clock_max_mhz", maxClock},
                                  {"ceilings", out}}
                       .dump(2)
                << '\n';
    return kExitOk;
  }
  context.out << device.name << " (" << device.uuid << "), measured "
              << formatTimestamp(ceilings.front().measuredAt) << "; datasheet at "
              << clockText(maxClock) << ", the SM clock's maximum\n";
  Table table(
      {"ceiling", "measured", "datasheet", "of it", "SM clock", "datasheet then", "of it", "how"});
  for (const DeviceCeiling& c : ceilings) {
    const CeilingSpec& spec = *ceilingSpec(c.name);
    const auto peak = datasheetPeak(device, c.name, maxClock);
    // Arithmetic and shared memory scale with the SM clock the card actually ran at.
    const auto atClock = datasheetPeak(device, c.name, c.smClockMhz);
    table.addRow({std::string(spec.label), formatCeiling(spec, c.value),
                  peak ? formatCeiling(spec, *peak) : "none published", fraction(c.value, peak),
                  clockText(c.smClockMhz), atClock ? formatCeiling(spec, *atClock) : "-",
                  fraction(c.value, atClock), std::string(spec.how)});
  }
  table.print(context.out);
  return kExitOk;
}

}  // namespace kwb
