#include "app/cli/interruptscope.h"

#include <csignal>

namespace kwb {
namespace {

std::atomic<bool> gInterrupted{false};
extern "C" void onInterrupt(int) {
  gInterrupted = true;
}

}  // namespace

InterruptScope::InterruptScope() : previous_(std::signal(SIGINT, onInterrupt)) {
  gInterrupted = false;
}

InterruptScope::~InterruptScope() {
  std::signal(SIGINT, previous_);
}

std::atomic<bool>& InterruptScope::interrupted() {
  return gInterrupted;
}

}  // namespace kwb
