#include "app/cli/devicepool.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include <poll.h>

#include "app/cli/workerprocess.h"
#include "core/error.h"
#include "core/timeformat.h"

namespace kwb {
namespace {

// A worker's hello comes before it touches the GPU: this long is a worker that cannot start.
constexpr int kHelloSeconds = 60;

std::string pointId(std::size_t run, std::size_t index) {
  return "p" + std::to_string(run) + "." + std::to_string(index);
}

// A worker's measured ceiling as its run carries it: the bandwidth alone.
CopyCeiling learnedCeiling(const RunResult& run) {
  return {run.ceilingBandwidth, 0, "measured by a pooled worker", nowUnixMs()};
}

}  // namespace

struct DevicePool::Slot {
  int device = 0;
  std::unique_ptr<WorkerProcess> process;
  std::optional<std::size_t> point;    // the point it runs
  std::optional<CopyCeiling> ceiling;  // the history's, kept where the worker's hello takes it
  bool ceilingLearned = false;         // its own measured one, from its first run
  bool greeted = false;
  bool alive = true;
};

DevicePool::DevicePool(const std::vector<std::vector<std::string>>& commands,
                       const std::vector<int>& devices, PoolCeilings ceilings)
    : measured_(std::move(ceilings.measured)), started_(std::chrono::steady_clock::now()) {
  for (std::size_t k = 0; k < commands.size(); ++k) {
    auto slot = std::make_unique<Slot>();
    slot->device = devices[k];
    if (k < ceilings.given.size()) slot->ceiling = ceilings.given[k];
    slot->process = std::make_unique<WorkerProcess>(commands[k]);
    slots_.push_back(std::move(slot));
  }
}

DevicePool::~DevicePool() {
  for (auto& slot : slots_)
    if (slot->alive) slot->process->send({"bye", protocol::ShutdownRequest{}});
}

std::size_t DevicePool::run(const protocol::Kernel& kernel, const std::vector<RawParams>& points,
                            const MeasureSettings& options, const std::atomic<bool>* cancel,
                            const PoolEvents& events) {
  const std::size_t run = runs_++;
  std::size_t next = 0, ran = 0, settled = 0;
  const auto assign = [&](Slot& slot) {
    if (next >= points.size() || (cancel && cancel->load())) return;
    protocol::Kernel k = kernel;
    k.params = points[next];
    MeasureSettings o = options;
    o.copyCeiling = slot.ceiling;
    slot.point = next;
    slot.process->send({pointId(run, next), protocol::RunRequest{k, o}});
    ++next;
  };
  const auto settle = [&](Slot& slot) {
    ++settled;
    slot.point.reset();
    assign(slot);
  };
  const auto end = [&](Slot& slot, const std::string& why) {
    const std::string sentence = "the worker of device " + std::to_string(slot.device) + " " + why;
    slot.alive = false;
    if (slot.point) {
      if (events.failed) events.failed(*slot.point, slot.device, sentence + "; its point is lost");
      ++settled;
      slot.point.reset();
    }
    if (events.workerEnded) events.workerEnded(slot.device, sentence);
  };
  const auto handle = [&](Slot& slot, const protocol::Reply& reply) {
    if (const auto* hello = std::get_if<protocol::Hello>(&reply.body)) {
      slot.greeted = true;
      if (std::ranges::find(hello->options, "copy_ceiling") == hello->options.end())
        slot.ceiling.reset();  // an older worker, which would refuse it
      assign(slot);
      return;
    }
    if (!slot.point || reply.id != pointId(run, *slot.point)) return;  // a cancel's progress
    if (const auto* result = std::get_if<protocol::Result>(&reply.body)) {
      if (!slot.ceiling && !slot.ceilingLearned && result->run.ceilingBandwidth > 0) {
        slot.ceilingLearned = true;
        if (measured_) measured_(slot.device, learnedCeiling(result->run));
      }
      if (events.result) events.result(*slot.point, slot.device, result->run);
      ++ran;
    } else if (const auto* failure = std::get_if<protocol::Failure>(&reply.body)) {
      if (events.failed) events.failed(*slot.point, slot.device, failure->message);
      settle(slot);  // an error ends the request: no done follows
    } else if (std::holds_alternative<protocol::Done>(reply.body)) {
      settle(slot);
    }
  };

  for (auto& slot : slots_)
    if (slot->alive && slot->greeted) assign(*slot);
  bool cancelSent = false;
  while (settled < points.size()) {
    if (cancel && cancel->load() && !cancelSent) {
      for (auto& slot : slots_)
        if (slot->alive && slot->point)
          slot->process->send({"stop", protocol::CancelRequest{pointId(run, *slot->point)}});
      cancelSent = true;
    }
    std::vector<pollfd> fds;
    for (auto& slot : slots_) {
      if (!slot->alive) continue;
      if (slot->process->outputFd() >= 0) fds.push_back({slot->process->outputFd(), POLLIN, 0});
      if (slot->process->errorFd() >= 0) fds.push_back({slot->process->errorFd(), POLLIN, 0});
    }
    if (fds.empty()) break;  // every worker has ended
    poll(fds.data(), fds.size(), 200);

    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    for (auto& slot : slots_) {
      if (!slot->alive) continue;
      slot->process->readErrors();
      for (const protocol::Reply& reply :
           slot->process->readReplies("the worker of device " + std::to_string(slot->device)))
        handle(*slot, reply);
      if (!slot->process->running())
        end(*slot, slot->process->endSentence());
      else if (!slot->greeted && waited > kHelloSeconds)
        end(*slot, "did not answer within " + std::to_string(kHelloSeconds) + " s");
    }
    if (cancelSent && std::none_of(slots_.begin(), slots_.end(),
                                   [](const auto& s) { return s->alive && s->point; }))
      break;
  }
  if (cancel && cancel->load()) throw Error(ErrorKind::Cancelled, "cancelled");
  if (settled < points.size())
    throw Error(ErrorKind::Internal, "every worker ended with " +
                                         std::to_string(points.size() - settled) +
                                         " of the points left to run");
  return ran;
}

std::size_t runOnDevices(const std::vector<std::vector<std::string>>& commands,
                         const std::vector<int>& devices, const protocol::Kernel& kernel,
                         const std::vector<RawParams>& points, const MeasureSettings& options,
                         const std::atomic<bool>* cancel, const PoolEvents& events,
                         PoolCeilings ceilings) {
  return DevicePool(commands, devices, std::move(ceilings))
      .run(kernel, points, options, cancel, events);
}

}  // namespace kwb
