#include "app/cli/poolgpus.h"

#include <algorithm>

#include "app/cli/workercommand.h"
#include "core/format.h"
#include "core/valueparse.h"
#include "db/runstore.h"
#include "measure/devicequery.h"

namespace kwb {
namespace {

// --devices: "all", or ordinals as "0,1", each one of the `count` devices there, none twice.
std::vector<int> devicesOf(const std::string& text, int count) {
  std::vector<int> devices;
  if (text == "all") {
    for (int d = 0; d < count; ++d) devices.push_back(d);
    return devices;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const auto ordinal = parseInteger(item);
    if (!ordinal || *ordinal < 0 || *ordinal >= count)
      throw Error(ErrorKind::Usage, "--devices: '" + printable(item) + "' is not a device there; " +
                                        "allowed: all, or ordinals 0.." +
                                        std::to_string(count - 1) + " separated by commas");
    if (std::find(devices.begin(), devices.end(), *ordinal) != devices.end())
      throw Error(ErrorKind::Usage, "--devices: device " + item + " is named twice");
    devices.push_back(static_cast<int>(*ordinal));
    start = comma + 1;
  }
  return devices;
}

}  // namespace

PoolGpus poolGpus(const CliContext& context, const std::string& devices) {
  const std::string& host = context.global.host;
  PoolGpus gpus;
  if (host.empty()) {
    gpus.all = queryDevices();
    if (gpus.all.empty()) throw Error(ErrorKind::NoDevice, noDeviceReason());
  } else {
    try {
      gpus.all = workerDevices(workerCommand(host, 0));
    } catch (const Error& error) {
      throw Error(error.kind(), host + ": " + error.what());
    }
  }
  const int count = static_cast<int>(gpus.all.size());
  if (!devices.empty()) {
    gpus.ordinals = devicesOf(devices, count);
  } else if (context.global.device < count) {
    gpus.ordinals = {context.global.device};
  } else {
    throw Error(ErrorKind::Usage, "--device " + std::to_string(context.global.device) + ": " +
                                      workerPlace(host) + " has " + std::to_string(count) +
                                      " devices");
  }
  return gpus;
}

std::vector<std::vector<std::string>> PoolGpus::commands(const std::string& host) const {
  std::vector<std::vector<std::string>> out;
  for (const int d : ordinals) out.push_back(workerCommand(host, d));
  return out;
}

PoolCeilings PoolGpus::ceilings(RunStore* store) const {
  PoolCeilings out;
  if (!store) return out;
  const auto uuid = [all = all](int d) {
    return static_cast<std::size_t>(d) < all.size() ? all[static_cast<std::size_t>(d)].uuid
                                                    : std::string();
  };
  for (const int d : ordinals)
    out.given.push_back(uuid(d).empty() ? std::nullopt : store->latestCeiling(uuid(d)));
  out.measured = [store, uuid](int device, const CopyCeiling& ceiling) {
    if (!uuid(device).empty()) store->saveCeiling(uuid(device), ceiling);
  };
  return out;
}

std::string PoolGpus::names(const std::string& host) const {
  std::string out;
  for (const int d : ordinals) out += (out.empty() ? "" : ", ") + std::to_string(d);
  return host.empty() ? out : out + " of " + host;
}

}  // namespace kwb
