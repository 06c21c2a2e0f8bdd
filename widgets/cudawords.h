#pragma once

#include <QStringList>

namespace kwb {

// CUDA's own words, shared by the source view's highlighter and the kernel editor's lexer:
// qualifiers, built-in variables and the intrinsics kernels here use.
const QStringList& cudaWords();

}  // namespace kwb
