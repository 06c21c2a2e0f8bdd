#pragma once

#include <string>

#include <QString>
#include <QStringList>

namespace kwb {

// The CUDA sources of a variant, as built into the GUI: resource paths, the kernel itself first,
// and where in that file the variant's own kernel starts (a name its definition holds; empty: at
// the top), since several variants share a file. No files for a variant the GUI does not know (a
// newer worker's).
struct KernelSources {
  QStringList files;
  QString entry;
};
KernelSources kernelSources(const std::string& family, const std::string& variant);

// A source file's text from the built-in copy; empty when there is none.
QString kernelSource(const QString& path);

}  // namespace kwb
