#pragma once

#include <QColor>
#include <QSyntaxHighlighter>

#include "core/sass.h"

namespace kwb {

// The colour of an instruction class, shared by the listing and its legend.
QColor sassClassColor(SassClass kind);

// Colours a SASS listing: each instruction that matters (global accesses, 128-bit ones apart,
// shared memory, barriers, shuffles) in its class's colour on a tinted line; addresses grey.
class SassHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit SassHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

 protected:
  void highlightBlock(const QString& text) override;
};

}  // namespace kwb
