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

KernelSources kernelSources(const std::string& family, const std::string& variant) {
  static const std::map<Key, KernelSources> sources = [] {
    std::map<Key, KernelSources> m;
    m[{"copy", "memcpy"}] = {files({"copy/copyfamily.cpp"}), {}};
    m[{"copy", "vectorized"}] = {files({"copy/vectorizedcopy.cu"}), "copyKernel("};
    const QStringList elementwise = files({"elementwise/elementwisekernels.cuh",
                                           "elementwise/functors.cuh", "elementwise/ops/gelu.cu"});
    m[{"elementwise", "naive"}] = {elementwise, "naiveKernel("};
    for (const char* v : {"grid_stride", "packed", "packed_half2"})
      m[{"elementwise", v}] = {elementwise, "walkPacks("};
    const QStringList strided = files({"permute/permutekernels.cu", "permute/permuteplan.cpp"});
    m[{"permute", "naive"}] = {strided, "naivePermuteKernel("};
    for (const char* v : {"simplified", "movement"})
      m[{"permute", v}] = {strided, "stridedPermuteKernel("};
    const QStringList tiled = files({"permute/tiledtranspose.cu"});
    m[{"permute", "tiled"}] = {tiled, "tiledTransposeKernel("};
    m[{"permute", "tiled_half2"}] = {tiled, "tiledTransposePairsKernel("};
    m[{"permute", "tiled_wide"}] = {tiled + files({"permute/registertranspose.cuh"}),
                                    "tiledTransposeCellsKernel("};
    m[{"permute", "narrow"}] = {files({"permute/narrowtranspose.cu"}), {}};
    m[{"permute", "general"}] = {
        files({"permute/generaltiled.cu", "permute/generalcells.cu", "permute/generaltile.cuh",
               "permute/generaltiling.cpp", "permute/registertranspose.cuh"}),
        {}};
    m[{"permute", "packed"}] = {files({"permute/packedtranspose.cu", "permute/packedwords.cu",
                                       "permute/packedtile.cuh", "permute/packedtiling.cpp"}),
                                "packedKernel("};
    // auto opens at its decision tree; autoKind() below it adds packed tiles in words.
    m[{"permute", "auto"}] = {
        files({"permute/permuteauto.cpp", "permute/permutefamily.cpp", "permute/tiledtranspose.cu",
               "permute/generaltiled.cu", "permute/generalcells.cu", "permute/narrowtranspose.cu",
               "permute/packedtranspose.cu", "permute/packedwords.cu",
               "permute/permutekernels.cu"}),
        "kindBeforeWords("};
    const QStringList chain =
        files({"giou/giouops.cu", "giou/giouchain.cpp", "giou/giouworkload.cpp"});
    for (const char* v : {"per_sample", "concat", "padded"}) m[{"giou", v}] = {chain, {}};
    const QStringList fused = files({"giou/gioufused.cu", "giou/gioumath.h", "giou/giouboxes.cuh"});
    m[{"giou", "fused"}] = {fused, "giouForwardKernel("};
    m[{"giou", "fused_conditional"}] = {fused, "giouConditionalKernel("};
    m[{"giou", "fused_fwd_bwd"}] = {fused, "giouForwardBackwardKernel("};
    return m;
  }();
  const auto found = sources.find({family, variant});
  return found == sources.end() ? KernelSources() : found->second;
}

QString kernelSource(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

}  // namespace kwb
