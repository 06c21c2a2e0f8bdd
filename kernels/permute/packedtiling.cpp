#include "kernels/permute/packedtiling.h"

#include <algorithm>

namespace kwb::permute {
namespace {

// A run from an arbitrary start fetches on average a sector's bytes, less one, more than it
// needs; a tile costs its barriers and offsets about as much as moving kTileOverhead elements.
constexpr double kSectorBytes = 32;
constexpr double kTileOverhead = 256;

double runEfficiency(std::int64_t runBytes) {
  const double r = static_cast<double>(runBytes);
  return r / (r + kSectorBytes - 1);
}

// Dimensions innermost first in the source and in the destination, with their strides.
struct Orders {
  int rank = 0;
  int src[kMaxDims] = {}, dst[kMaxDims] = {};
  std::int64_t srcStride[kMaxDims] = {}, dstStride[kMaxDims] = {};
};

Orders ordersOf(const Permutation& s) {
  Orders o;
  o.rank = static_cast<int>(s.shape.size());
  std::int64_t stride = 1;
  for (int d = o.rank - 1; d >= 0; --d) {
    o.srcStride[d] = stride;
    stride *= s.shape[static_cast<std::size_t>(d)];
    o.src[o.rank - 1 - d] = d;
  }
  stride = 1;
  for (int j = o.rank - 1; j >= 0; --j) {
    const int d = s.perm[static_cast<std::size_t>(j)];
    o.dstStride[d] = stride;
    stride *= s.shape[static_cast<std::size_t>(d)];
    o.dst[o.rank - 1 - j] = d;
  }
  return o;
}

// One candidate tile: which dimensions it holds, and the one cut into chunks of `chunk`.
struct Candidate {
  unsigned held = 0;  // bit d: dimension d
  int split = -1;     // a dimension, or -1
  std::int64_t chunk = 1, chunks = 1, volume = 1;
  std::int64_t runIn = 1, runOut = 1;
  double score = 0;
};

// Elements a tile reads (or writes) in one run: its dimensions in that side's order, as far as
// each is held whole.
std::int64_t runAlong(const int* order, int rank, const Candidate& c, const Permutation& s) {
  std::int64_t run = 1;
  for (int k = 0; k < rank; ++k) {
    const int d = order[k];
    if (!(c.held >> d & 1)) break;
    if (d == c.split) return run * c.chunk;
    run *= s.shape[static_cast<std::size_t>(d)];
  }
  return run;
}

void scoreOf(Candidate& c, const Orders& o, const Permutation& s, int bytes) {
  c.runIn = runAlong(o.src, o.rank, c, s);
  c.runOut = runAlong(o.dst, o.rank, c, s);
  const double in = runEfficiency(c.runIn * bytes), out = runEfficiency(c.runOut * bytes);
  const double volume = static_cast<double>(c.volume);
  const double chunkFill = c.split < 0
                               ? 1.0
                               : static_cast<double>(s.shape[static_cast<std::size_t>(c.split)]) /
                                     static_cast<double>(c.chunks * c.chunk);
  c.score = 2 / (1 / in + 1 / out) * volume / (volume + kTileOverhead) * chunkFill;
}

// Element p of tile t along `order` (tile dimensions innermost first on that side).
PackedElement elementOf(const PackedTiling& g, std::int64_t tile, int p, const int* order,
                        bool src) {
  PackedElement e;
  if (p >= g.volume) return e;
  const std::int64_t chunk = tile % g.chunks, b = tile / g.chunks;
  std::int64_t offset = combinedOffset(g.batch, g.batchRank, b, src);
  int rest = p;
  for (int m = 0; m < g.rank; ++m) {
    const PackedTiling::Axis& a = g.axis[order[m]];
    std::int64_t digit = rest % a.extent;
    rest /= a.extent;
    e.shared += static_cast<int>(digit) * a.sharedStride;
    if (order[m] == g.split) {
      digit += chunk * a.extent;
      if (digit >= a.size) return e;
    }
    offset += digit * (src ? a.srcStride : a.dstStride);
  }
  e.inside = true;
  e.offset = offset;
  return e;
}

}  // namespace

std::optional<PackedTiling> packedTiling(const Permutation& s, int bytes, int maxVolume) {
  const Orders o = ordersOf(s);
  Candidate best;
  best.score = -1;
  const auto consider = [&](Candidate c) {
    scoreOf(c, o, s, bytes);
    if (c.score > best.score) best = c;
  };
  // Every union of the source's innermost a dimensions and the destination's innermost b, whole
  // where it fits, else with the outermost of either side's part
  // cut into as few chunks as fit, of equal size.
  for (int a = 1; a <= o.rank; ++a)
    for (int b = 1; b <= o.rank; ++b) {
      Candidate c;
      for (int k = 0; k < a; ++k) c.held |= 1u << o.src[k];
      for (int k = 0; k < b; ++k) c.held |= 1u << o.dst[k];
      for (int d = 0; d < o.rank; ++d)
        if (c.held >> d & 1) c.volume *= s.shape[static_cast<std::size_t>(d)];
      if (c.volume <= maxVolume) consider(c);
      for (const int d : {o.src[a - 1], o.dst[b - 1]}) {
        const std::int64_t size = s.shape[static_cast<std::size_t>(d)];
        const std::int64_t rest = c.volume / size, most = maxVolume / rest;
        if (most < 1 || most >= size) continue;
        Candidate cut = c;
        cut.split = d;
        cut.chunks = (size + most - 1) / most;
        cut.chunk = (size + cut.chunks - 1) / cut.chunks;
        cut.volume = rest * cut.chunk;
        consider(cut);
      }
    }
  if (best.score < 0) return std::nullopt;

  PackedTiling g;
  int index[kMaxDims] = {};  // dimension -> tile dimension
  for (int k = 0; k < o.rank; ++k) {
    const int d = o.src[k];
    PackedTiling::Axis axis{s.shape[static_cast<std::size_t>(d)], 1, o.srcStride[d], o.dstStride[d],
                            0};
    if (!(best.held >> d & 1)) {
      g.batch[g.batchRank++] = {axis.size, axis.srcStride, axis.dstStride};
      g.batchExtent *= axis.size;
      continue;
    }
    axis.extent = static_cast<int>(d == best.split ? best.chunk : axis.size);
    if (d == best.split) g.split = g.rank;
    index[d] = g.rank;
    g.axis[g.rank++] = axis;
  }
  int m = 0;
  for (int k = 0; k < o.rank; ++k)
    if (best.held >> o.dst[k] & 1) g.dstOrder[m++] = index[o.dst[k]];
  // The tile lies in shared memory in the source's order; the destination's innermost dimension
  // gets an odd stride there, so that the lanes of a store's warp fall in different banks.
  int stride = 1;
  for (int k = 0; k < g.rank; ++k) {
    if (k > 0 && k == g.dstOrder[0] && stride % 2 == 0) ++stride;
    g.axis[k].sharedStride = stride;
    stride *= g.axis[k].extent;
  }
  g.sharedElements = stride;
  g.chunks = best.chunks;
  g.volume = static_cast<int>(best.volume);
  g.runIn = best.runIn;
  g.runOut = best.runOut;
  return g;
}

std::string PackedTiling::describe() const {
  std::string dims;
  for (int k = rank - 1; k >= 0; --k) {
    const Axis& a = axis[k];
    dims += std::to_string(a.extent);
    if (k == split) dims += "/" + std::to_string(a.size);
    if (k > 0) dims += " x ";
  }
  return "tile " + dims + " | reads " + std::to_string(runIn) + " | writes " +
         std::to_string(runOut);
}

PackedElement packedLoad(const PackedTiling& g, std::int64_t tile, int p) {
  int order[kMaxDims];
  for (int k = 0; k < g.rank; ++k) order[k] = k;
  return elementOf(g, tile, p, order, true);
}

PackedElement packedStore(const PackedTiling& g, std::int64_t tile, int p) {
  return elementOf(g, tile, p, g.dstOrder, false);
}

}  // namespace kwb::permute
