#pragma once

// Core value types that travel in signals: declared so that queued connections and QSignalSpy
// can copy them.
#include <QMetaType>

#include <vector>

#include "core/deviceinfo.h"
#include "core/runresult.h"
#include "core/sass.h"
#include "core/validation.h"
#include "core/variantinfo.h"
#include "db/historyfilter.h"
#include "widgets/historyrow.h"

Q_DECLARE_METATYPE(kwb::RunResult)
Q_DECLARE_METATYPE(kwb::ParamSet)
Q_DECLARE_METATYPE(kwb::RawParams)
Q_DECLARE_METATYPE(kwb::SassReport)
Q_DECLARE_METATYPE(kwb::HistoryFilter)
Q_DECLARE_METATYPE(kwb::HistorySnapshot)
Q_DECLARE_METATYPE(std::vector<kwb::FamilyInfo>)
Q_DECLARE_METATYPE(std::vector<kwb::DeviceInfo>)

namespace kwb {

inline void registerMetaTypes() {
  qRegisterMetaType<kwb::RunResult>();
  qRegisterMetaType<kwb::ParamSet>();
  qRegisterMetaType<kwb::SassReport>();
  qRegisterMetaType<kwb::HistoryFilter>();
  qRegisterMetaType<kwb::HistorySnapshot>();
  qRegisterMetaType<std::vector<kwb::FamilyInfo>>();
  qRegisterMetaType<std::vector<kwb::DeviceInfo>>();
}

}  // namespace kwb
