#include "widgets/cudalexer.h"

#include <QFontDatabase>

#include "widgets/cudawords.h"

namespace kwb {

CudaLexer::CudaLexer(QObject* parent)
    : QsciLexerCPP(parent), cudaWords_(cudaWords().join(' ').toLatin1()) {
  const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  setDefaultFont(fixed);
  for (int style = 0; style <= QsciLexerCPP::InactiveUserLiteral; ++style) setFont(fixed, style);
  setColor(QColor(160, 0, 120), KeywordSet2);
  QFont bold = fixed;
  bold.setBold(true);
  setFont(bold, KeywordSet2);
  setFont(bold, Keyword);
}

const char* CudaLexer::keywords(int set) const {
  // Set 2 is the lexer's "secondary keywords": CUDA's words.
  return set == 2 ? cudaWords_.constData() : QsciLexerCPP::keywords(set);
}

}  // namespace kwb
