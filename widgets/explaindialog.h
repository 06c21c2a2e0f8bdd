#pragma once

#include <QDialog>

#include <cstdint>

#include "core/runresult.h"

namespace kwb {

class ExplainView;

// The history's Explain...: two stored runs in an ExplainView of their own window.
class ExplainDialog : public QDialog {
  Q_OBJECT

 public:
  ExplainDialog(std::int64_t beforeId, const RunResult& before, std::int64_t afterId,
                const RunResult& after, QWidget* parent = nullptr);
  ExplainView* view() const { return view_; }

 private:
  ExplainView* view_;
};

}  // namespace kwb
