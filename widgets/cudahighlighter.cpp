#include "widgets/cudahighlighter.h"

#include "widgets/cudawords.h"

namespace kwb {
namespace {

QTextCharFormat styled(const QColor& color, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(color);
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

QRegularExpression words(const QStringList& list) {
  return QRegularExpression("\\b(" + list.join('|') + ")\\b");
}

}  // namespace

CudaHighlighter::CudaHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
  rules_.push_back(
      {words({"template", "typename",  "class",    "struct",  "union",       "namespace",
              "using",    "return",    "if",       "else",    "for",         "while",
              "do",       "break",     "continue", "switch",  "case",        "default",
              "const",    "constexpr", "static",   "inline",  "auto",        "void",
              "bool",     "true",      "false",    "nullptr", "static_cast", "reinterpret_cast",
              "sizeof",   "operator",  "enum",     "throw",   "try",         "catch"}),
       styled(QColor(0, 0, 160), true)});
  rules_.push_back({words(cudaWords()), styled(QColor(160, 0, 120), true)});
  rules_.push_back(
      {words({"int",           "unsigned",      "float",         "double",       "char",
              "short",         "long",          "std::int64_t",  "std::int32_t", "std::uint8_t",
              "std::uint16_t", "std::uint32_t", "std::uint64_t", "std::size_t",  "uint4",
              "uint2",         "float4",        "float2",        "uchar4",       "__half",
              "__half2",       "__nv_bfloat16", "__nv_bfloat162"}),
       styled(QColor(0, 110, 110))});
  rules_.push_back({QRegularExpression("\\b(0x[0-9a-fA-F]+|[0-9]+(\\.[0-9]*)?([eE][-+]?[0-9]+)?"
                                       "[fFuUlL]*)\\b"),
                    styled(QColor(170, 90, 0))});
  rules_.push_back({QRegularExpression("\"([^\"\\\\]|\\\\.)*\""), styled(QColor(0, 130, 0))});
  rules_.push_back({QRegularExpression("^\\s*#.*"), styled(QColor(120, 80, 0))});
  rules_.push_back({QRegularExpression("//.*"), styled(QColor(110, 110, 110))});
  comment_ = styled(QColor(110, 110, 110));
}

void CudaHighlighter::highlightBlock(const QString& text) {
  for (const Rule& rule : rules_)
    for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
      const auto match = it.next();
      setFormat(static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()),
                rule.format);
    }
  // Block comments: state 1 while inside one at the end of a line.
  static const QRegularExpression open("/\\*"), close("\\*/");
  qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf(open);
  setCurrentBlockState(0);
  while (start >= 0) {
    const auto end = close.match(text, start);
    qsizetype length;
    if (end.hasMatch()) {
      length = end.capturedEnd() - start;
    } else {
      setCurrentBlockState(1);
      length = text.length() - start;
    }
    setFormat(static_cast<int>(start), static_cast<int>(length), comment_);
    start = text.indexOf(open, start + length);
  }
}

}  // namespace kwb
