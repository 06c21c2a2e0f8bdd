#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace kwb {

// Colours CUDA C++ for the source view: keywords, CUDA's qualifiers and intrinsics, types,
// numbers, strings, preprocessor lines and comments (// and /* */ across lines).
class CudaHighlighter : public QSyntaxHighlighter {
  Q_OBJECT

 public:
  explicit CudaHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
};

}  // namespace kwb
