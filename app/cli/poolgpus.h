#pragma once

#include <string>
#include <vector>

#include "app/cli/clicontext.h"
#include "app/cli/devicepool.h"
#include "core/deviceinfo.h"

namespace kwb {

class RunStore;

// The GPUs a pooled sweep or tuning runs on (--devices, else --device) and what each is, by
// ordinal: this machine's, or on --host as its worker sees them.
struct PoolGpus {
  std::vector<int> ordinals;
  std::vector<DeviceInfo> all;

  const DeviceInfo& first() const { return all[static_cast<std::size_t>(ordinals.front())]; }
  // The commands that start their workers, and "0, 1 of HOST" for sentences.
  std::vector<std::vector<std::string>> commands(const std::string& host) const;
  std::string names(const std::string& host) const;
  // Their copy ceilings as `store` holds them (by GPU, so a remote host's too); those the workers
  // measure are kept there. Nothing without a store.
  PoolCeilings ceilings(RunStore* store) const;
};

// `devices` as --devices takes it ("all", "0,1"; empty: --device alone). Error(NoDevice) where
// there is no GPU, Error(Usage) for an ordinal not there.
PoolGpus poolGpus(const CliContext& context, const std::string& devices);

}  // namespace kwb
