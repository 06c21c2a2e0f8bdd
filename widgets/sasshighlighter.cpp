#include "widgets/sasshighlighter.h"

#include <QTextCharFormat>

namespace kwb {

QColor sassClassColor(SassClass kind) {
  switch (kind) {
    case SassClass::GlobalWide: return QColor(0x1b, 0x7f, 0x3b);
    case SassClass::GlobalNarrow: return QColor(0xb3, 0x59, 0x00);
    case SassClass::Shared: return QColor(0x1f, 0x5f, 0xbf);
    case SassClass::Barrier: return QColor(0xb3, 0x26, 0x1e);
    case SassClass::Shuffle: return QColor(0x7b, 0x3f, 0xb0);
    case SassClass::Other: break;
  }
  return QColor(Qt::black);
}

void SassHighlighter::highlightBlock(const QString& text) {
  const qsizetype address = text.indexOf("*/");
  if (address < 0) return;
  QTextCharFormat grey;
  grey.setForeground(QColor(0x90, 0x90, 0x90));
  setFormat(0, static_cast<int>(address + 2), grey);

  const std::string opcode = sassOpcode(text.toStdString());
  const SassClass kind = classifySassOpcode(opcode);
  if (kind == SassClass::Other) return;
  const QColor color = sassClassColor(kind);
  QColor tint = color;
  tint.setAlpha(28);
  QTextCharFormat line;
  line.setBackground(tint);
  setFormat(static_cast<int>(address + 2), static_cast<int>(text.size() - address - 2), line);
  QTextCharFormat op = line;
  op.setForeground(color);
  op.setFontWeight(QFont::Bold);
  setFormat(static_cast<int>(text.indexOf(QString::fromStdString(opcode), address)),
            static_cast<int>(opcode.size()), op);
}

}  // namespace kwb
