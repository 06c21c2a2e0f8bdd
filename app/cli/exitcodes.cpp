#include "app/cli/exitcodes.h"

namespace kwb {

int exitCodeFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
    case ErrorKind::Param: return kExitBadInput;
    case ErrorKind::NoDevice: return kExitNoDevice;
    case ErrorKind::Verification: return kExitVerification;
    case ErrorKind::Database: return kExitDatabase;
    case ErrorKind::Cancelled: return kExitCancelled;
    case ErrorKind::Tool: return kExitTool;
    case ErrorKind::Cuda:
    case ErrorKind::Internal: return kExitFailed;
  }
  return kExitFailed;
}

}  // namespace kwb
