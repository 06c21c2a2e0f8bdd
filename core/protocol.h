#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/deviceinfo.h"
#include "core/error.h"
#include "core/measuresettings.h"
#include "core/runresult.h"
#include "core/sass.h"
#include "core/tunesettings.h"
#include "core/validation.h"
#include "core/variantinfo.h"

namespace kwb::protocol {

// The worker protocol: one JSON object per line, both ways, each with "v" and "type". This file
// is its only spelling: both ends build and read messages through these structs.
// docs/protocol.md is its reference; bump the version on any incompatible change.
inline constexpr int kVersion = 2;

enum class Type {
  Hello,
  List,
  Devices,
  Resolve,
  Resolved,
  Run,
  Sweep,
  Sass,
  Cancel,
  Shutdown,
  Progress,
  Result,
  Done,
  Error,
  Tune,
  Tuned,
  Evaluated,
};
std::string_view toString(Type type);

// A line that is not a message of this protocol. field names what is wrong ("options.budget_s",
// "v" for another protocol version); id is the request's, where it could be read.
class DecodeError : public kwb::Error {
 public:
  DecodeError(std::string field, const std::string& message, std::string id = {},
              std::optional<int> version = {})
      : kwb::Error(ErrorKind::Usage, message),
        field_(std::move(field)),
        id_(std::move(id)),
        version_(version) {}
  const std::string& field() const { return field_; }
  const std::string& id() const { return id_; }
  // The other side's protocol version, when the line was a message of another version.
  std::optional<int> otherVersion() const { return version_; }

 private:
  std::string field_;
  std::string id_;
  std::optional<int> version_;
};

// --- Requests (client to worker) ---

// The configuration a request is about: as `kwb run FAMILY VARIANT name=value ...` takes it, or
// a user's kernel file (`kwb run FILE.cu name=value ...`), whose text travels with the request so
// that a worker on another machine runs what the user sees.
struct Kernel {
  std::string family;
  std::string variant;
  RawParams params;
  std::string path = {};    // a kernel file's; family and variant then come from its spec
  std::string source = {};  // the file's text
  bool isFile() const { return !source.empty(); }
};
// The configuration a stored run ran: its kernel file's text as it ran, or its built-in variant,
// with its problem and launch values.
Kernel kernelOf(const RunResult& run);
struct ListRequest {};
struct DevicesRequest {};
struct ResolveRequest {
  Kernel kernel;
};
struct SassRequest {
  Kernel kernel;
};
struct RunRequest {
  Kernel kernel;
  MeasureSettings options;
};
struct SweepRequest {
  Kernel kernel;
  std::vector<std::string> axes;  // one or two axis texts, "waves=1:8"
  MeasureSettings options;
};
// A tuning (docs/tuning.md): every fresh run comes as a result, progress says the best so far,
// and a "tuned" reply carries the whole report before "done".
struct TuneRequest {
  Kernel kernel;
  TuneSettings tune;
  MeasureSettings options;
};
struct CancelRequest {
  std::string target;
};
struct ShutdownRequest {};

using RequestBody =
    std::variant<RunRequest, SweepRequest, SassRequest, ResolveRequest, DevicesRequest, ListRequest,
                 CancelRequest, ShutdownRequest, TuneRequest>;
struct Request {
  std::string id;
  RequestBody body;
  Type type() const;
  // Run, sweep, tune and sass requests are jobs: they run on the GPU, one at a time.
  bool isJob() const;
  // The configuration of a resolve, sass, run, sweep or tune request; null for the others.
  const Kernel* kernel() const;
  // How a run, sweep or tune request is to be measured; null for the others.
  const MeasureSettings* options() const;
};

// The request options this build takes, as a worker's hello lists them.
std::vector<std::string> optionNames();

// --- Replies (worker to client) ---

struct Hello {
  std::string appVersion;
  int protocol = kVersion;
  // The options its requests may carry: a client writes a newer one only where it is listed
  // (a worker of an older build lists none, and refuses options it does not know).
  std::vector<std::string> options = optionNames();
};
struct Catalog {  // "list"
  std::vector<FamilyInfo> families;
};
struct DeviceList {  // "devices"
  std::vector<DeviceInfo> devices;
};
// The parameters with defaults applied and, on a device, what the variant derives from them and
// the bytes it moves; without derived values, noDevice says why.
struct Resolved {
  ParamSet params;
  std::optional<ParamSet> derived;
  std::uint64_t bytes = 0;
  std::string device;
  std::string noDevice;
};
struct SassListing {  // "sass"
  SassReport report;
};
struct Progress {
  std::size_t done = 0;
  std::size_t total = 0;  // 0 for a step outside the points (the copy ceiling)
  double etaSeconds = 0;
  std::string text;
};
struct Result {
  std::size_t index = 0;
  RunResult run;
  std::optional<std::int64_t> runId;
};
struct Done {
  std::size_t completed = 0;
  bool cancelled = false;
};
struct Evaluated {         // one evaluation of a tuning, as its report lists them
  std::size_t number = 0;  // 1 for the first
  nlohmann::json evaluation;
};
struct Tuned {  // a tuning's report, as `kwb tune --json` prints it
  nlohmann::json report;
};
struct Failure {  // "error"
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
  std::string param;  // the parameter at fault, if one is
  static Failure of(const kwb::Error& error);
};

using ReplyBody = std::variant<Hello, Catalog, DeviceList, Resolved, SassListing, Progress, Result,
                               Done, Failure, Tuned, Evaluated>;
struct Reply {
  std::string id;  // the request it answers; empty for hello and for lines that had none
  ReplyBody body;
  Type type() const;
};

// One line, '\n' included.
std::string encode(const Request& request);
std::string encode(const Reply& reply);

// Parse and check one line; throw DecodeError naming the field at fault.
Request decodeRequest(std::string_view line);
Reply decodeReply(std::string_view line);

}  // namespace kwb::protocol
