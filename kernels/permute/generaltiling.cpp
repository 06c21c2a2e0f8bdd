#include "kernels/permute/generaltiling.h"

#include <algorithm>

namespace kwb::permute {

int powerOfTwoAtLeast(std::int64_t n, int cap) {
  int p = 1;
  while (p < n && p < cap) p *= 2;
  return p;
}

GeneralTiling generalTiling(const Permutation& s, int tileElements, int inSpan, int outSpan,
                            double minFill) {
  const int rank = static_cast<int>(s.shape.size());
  const DimensionStrides strides = stridesOf(s);
  const auto axisOf = [&](int d) {
    return GeneralTiling::Axis{s.shape[static_cast<std::size_t>(d)], strides.src[d],
                               strides.dst[d]};
  };

  // Each group grows from its side's innermost dimension until it spans its span, never taking
  // the other side's innermost one; then, with the dimensions left, until it fills minFill of
  // the whole spans it covers.
  constexpr int side = kGroupSpan;
  const auto short_ = [](std::int64_t extent, int span, double fill) {
    const std::int64_t covered = (extent + span - 1) / span * span;
    return extent < span || static_cast<double>(extent) < fill * static_cast<double>(covered);
  };
  const int srcInner = rank - 1, dstInner = s.perm.back();
  std::vector<bool> used(static_cast<std::size_t>(rank), false);
  GeneralTiling g;
  int nextIn = srcInner, nextOut = rank - 1;  // the next dimension each group would take
  const auto growIn = [&](double fill) {
    for (; nextIn >= 0 && short_(g.inExtent, inSpan, fill) && nextIn != dstInner &&
           !used[static_cast<std::size_t>(nextIn)];
         --nextIn) {
      g.in[g.inRank++] = axisOf(nextIn);
      g.inExtent *= s.shape[static_cast<std::size_t>(nextIn)];
      used[static_cast<std::size_t>(nextIn)] = true;
    }
  };
  const auto growOut = [&](double fill) {
    for (; nextOut >= 0 && short_(g.outExtent, outSpan, fill); --nextOut) {
      const int d = s.perm[static_cast<std::size_t>(nextOut)];
      if (used[static_cast<std::size_t>(d)]) break;
      g.out[g.outRank++] = axisOf(d);
      g.outExtent *= s.shape[static_cast<std::size_t>(d)];
      used[static_cast<std::size_t>(d)] = true;
    }
  };
  growIn(0);
  growOut(0);
  if (minFill > 0) {
    growIn(minFill);
    growOut(minFill);
  }
  for (int d = rank - 1; d >= 0; --d)
    if (!used[static_cast<std::size_t>(d)]) {
      g.batch[g.batchRank++] = axisOf(d);
      g.batchExtent *= s.shape[static_cast<std::size_t>(d)];
    }
  // The shorter group sets its side of the tile; the other takes the rest of the tile.
  g.tileIn = powerOfTwoAtLeast(g.inExtent, tileElements);
  g.tileOut = powerOfTwoAtLeast(g.outExtent, tileElements);
  if (g.tileIn >= g.tileOut) {
    g.tileOut = std::min(g.tileOut, side);
    g.tileIn = std::min(g.tileIn, tileElements / g.tileOut);
  } else {
    g.tileIn = std::min(g.tileIn, side);
    g.tileOut = std::min(g.tileOut, tileElements / g.tileIn);
  }
  return g;
}

namespace {

// Whether a tile's rows start anywhere in a sector: some axis of the out group or the batch has
// a source stride of no whole sectors.
bool rowsStraddle(const GeneralTiling& g, int bytes) {
  const auto straddles = [&](const StridedAxis* axes, int rank) {
    for (int k = 0; k < rank; ++k)
      if (axes[k].srcStride * bytes % kSectorBytes != 0) return true;
    return false;
  };
  return straddles(g.out, g.outRank) || straddles(g.batch, g.batchRank);
}

}  // namespace

int tileRowsFor(const GeneralTiling& g, int tileIn, int tileElements) {
  return std::min(powerOfTwoAtLeast(g.outExtent, tileElements), tileElements / tileIn);
}

void fitTileSides(GeneralTiling& g, int bytes, int tileElements) {
  if (!rowsStraddle(g, bytes)) return;
  // Sides of 128 bytes or more, or the whole group: columns of 64 bytes moved (25, 12, 9, 6, 6,
  // 170) with (3, 0, 4, 5, 1, 2) in f32 at 0.65 of the copy ceiling where columns of 256 moved it
  // at 0.81, their fills alike (H100).
  const int minSide = std::max(1, kMinRunBytes / bytes);
  const auto fill = [&](int tileIn, int tileOut) {
    return fillOf(g.inExtent, tileIn) * fillOf(g.outExtent, tileOut);
  };
  const int inMost = powerOfTwoAtLeast(g.inExtent, tileElements);
  const int outMost = powerOfTwoAtLeast(g.outExtent, tileElements);
  const int area = g.tileIn * g.tileOut;  // as many units a tile as before: no more barriers
  double best = fill(g.tileIn, g.tileOut) * kMinFillGain;
  for (int tileIn = std::min(minSide, inMost); tileIn <= inMost; tileIn *= 2) {
    const int tileOut = tileRowsFor(g, tileIn, tileElements);
    if (tileOut < std::min(minSide, outMost) || tileIn * tileOut < area) continue;
    if (const double f = fill(tileIn, tileOut); f > best) {
      best = f;
      g.tileIn = tileIn;
      g.tileOut = tileOut;
    }
  }
}

std::string GeneralTiling::describe() const {
  const auto group = [](const Axis* axes, int rank) {
    if (rank == 0) return std::string("1");
    std::string text;
    for (int k = 0; k < rank; ++k) text += (k ? " x " : "") + std::to_string(axes[k].size);
    return text;
  };
  return "in " + group(in, inRank) + " | out " + group(out, outRank) + " | batch " +
         group(batch, batchRank);
}

TileElement tileElement(const GeneralTiling& g, std::int64_t tile, int o, int i) {
  const std::int64_t ti = tile % g.tilesIn();
  const std::int64_t to = tile / g.tilesIn() % g.tilesOut();
  const std::int64_t b = tile / g.tilesIn() / g.tilesOut();
  const std::int64_t in = ti * g.tileIn + i, out = to * g.tileOut + o;
  TileElement e;
  e.inside = in < g.inExtent && out < g.outExtent;
  if (!e.inside) return e;
  e.src = combinedOffset(g.batch, g.batchRank, b, true) +
          combinedOffset(g.out, g.outRank, out, true) + in;
  e.dst = combinedOffset(g.batch, g.batchRank, b, false) +
          combinedOffset(g.in, g.inRank, in, false) + out;
  return e;
}

}  // namespace kwb::permute
