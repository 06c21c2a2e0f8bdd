#pragma once

#include <string>
#include <vector>

#include "core/deviceinfo.h"

namespace kwb {

// The command that starts the worker of GPU `device`: this kwb, or, with a host, the host's kwb
// through the user's own ssh (their keys, agent, config and known hosts; nothing is stored
// here). $KWB_SSH replaces "ssh" (with options, as "ssh -F FILE"), $KWB_REMOTE_KWB the remote
// "kwb". The worker stores nothing: its results come back to be stored here.
std::vector<std::string> workerCommand(const std::string& host, int device);

// Where the worker runs, for sentences: "this machine" or the host.
std::string workerPlace(const std::string& host);

// The GPUs a worker started with `command` sees, asked through the protocol. Error(NoDevice)
// with the worker's sentence where it has none; Error(Internal) where it ends or stays silent.
std::vector<DeviceInfo> workerDevices(const std::vector<std::string>& command);

}  // namespace kwb
