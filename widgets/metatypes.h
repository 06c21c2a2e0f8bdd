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
#include "widgets/historyloader.h"
#include "widgets/historyrow.h"

Q_DECLARE_METATYPE(kwb::RunResult)
Q_DECLARE_METATYPE(kwb::ParamSet)
Q_DECLARE_METATYPE(kwb::RawParams)
Q_DECLARE_METATYPE(kwb::SassReport)
Q_DECLARE_METATYPE(kwb::HistoryFilter)
Q_DECLARE_METATYPE(kwb::HistoryIds)
Q_DECLARE_METATYPE(kwb::HistoryRows)
Q_DECLARE_METATYPE(kwb::HistorySeriesSet)
Q_DECLARE_METATYPE(kwb::HistoryComparison)
Q_DECLARE_METATYPE(std::shared_ptr<const kwb::HistorySeriesSet>)
Q_DECLARE_METATYPE(std::shared_ptr<const kwb::HistoryComparison>)
Q_DECLARE_METATYPE(std::vector<kwb::FamilyInfo>)
Q_DECLARE_METATYPE(std::vector<kwb::DeviceInfo>)

namespace kwb {

inline void registerMetaTypes() {
  qRegisterMetaType<kwb::RunResult>();
  qRegisterMetaType<kwb::ParamSet>();
  qRegisterMetaType<kwb::SassReport>();
  qRegisterMetaType<kwb::HistoryFilter>();
  qRegisterMetaType<kwb::HistoryIds>();
  qRegisterMetaType<kwb::HistoryRows>();
  qRegisterMetaType<kwb::HistorySeriesSet>();
  qRegisterMetaType<kwb::HistoryComparison>();
  qRegisterMetaType<std::shared_ptr<const kwb::HistorySeriesSet>>();
  qRegisterMetaType<std::shared_ptr<const kwb::HistoryComparison>>();
  qRegisterMetaType<std::vector<kwb::FamilyInfo>>();
  qRegisterMetaType<std::vector<kwb::DeviceInfo>>();
}

}  // namespace kwb
