#include "widgets/kernelsources.h"

#include <map>
#include <utility>

#include <QFile>

namespace kwb {
namespace {

using Key = std::pair<std::string, std::string>;

QStringList files(std::initializer_list<const char*> names) {
  QStringList out;
  for (const char* name : names) out << QString(":/kernels/%1").arg(name);
  return out;
}

}  // namespace

QStringList kernelSourceFiles(const std::string& family, const std::string& variant) {
  static const std::map<Key, QStringList> sources = [] {
    std::map<Key, QStringList> m;
    m[{"copy", "memcpy"}] = files({"copy/copyfamily.cpp"});
    m[{"copy", "vectorized"}] = files({"copy/vectorizedcopy.cu"});
    const QStringList elementwise = files({"elementwise/elementwisekernels.cuh",
                                           "elementwise/functors.cuh", "elementwise/ops/gelu.cu"});
    for (const char* v : {"naive", "grid_stride", "packed", "packed_half2"})
      m[{"elementwise", v}] = elementwise;
    const QStringList strided = files({"permute/permutekernels.cu", "permute/permuteplan.cpp"});
    for (const char* v : {"naive", "simplified", "movement"}) m[{"permute", v}] = strided;
    m[{"permute", "tiled"}] = m[{"permute", "tiled_half2"}] = files({"permute/tiledtranspose.cu"});
    m[{"permute", "tiled_wide"}] =
        files({"permute/tiledtranspose.cu", "permute/registertranspose.cuh"});
    m[{"permute", "narrow"}] = files({"permute/narrowtranspose.cu"});
    m[{"permute", "general"}] = files(
        {"permute/generaltiled.cu", "permute/generaltiling.cpp", "permute/registertranspose.cuh"});
    m[{"permute", "auto"}] = files({"permute/permutefamily.cpp", "permute/tiledtranspose.cu",
                                    "permute/narrowtranspose.cu", "permute/permutekernels.cu"});
    const QStringList chain =
        files({"giou/giouops.cu", "giou/giouchain.cpp", "giou/giouworkload.cpp"});
    for (const char* v : {"per_sample", "concat", "padded"}) m[{"giou", v}] = chain;
    const QStringList fused = files({"giou/gioufused.cu", "giou/gioumath.h", "giou/giouboxes.cuh"});
    for (const char* v : {"fused", "fused_conditional", "fused_fwd_bwd"}) m[{"giou", v}] = fused;
    return m;
  }();
  const auto found = sources.find({family, variant});
  return found == sources.end() ? QStringList() : found->second;
}

QString kernelSource(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

}  // namespace kwb
