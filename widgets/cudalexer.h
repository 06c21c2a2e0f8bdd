#pragma once

#include <Qsci/qscilexercpp.h>

namespace kwb {

// C++ as QScintilla colours it, with CUDA's qualifiers, built-in variables and intrinsics as a
// second keyword set of their own colour.
class CudaLexer : public QsciLexerCPP {
  Q_OBJECT

 public:
  explicit CudaLexer(QObject* parent = nullptr);
  const char* keywords(int set) const override;

 private:
  QByteArray cudaWords_;
};

}  // namespace kwb
